import { newId } from '../../../shared/ids.js';
import type { ImageRecord } from '../../../shared/images/image-model.js';
import { putImage } from '../../../shared/images/images-repository.js';

/**
 * Seeds `count` image records for a workspace straight through the repository (no bytes are
 * stored): list costs depend on the records only. Returns their ids, newest first (as listed).
 * Each record is written the way registration writes it (record + listing copy in one transaction).
 */
export async function seedImages(workspaceId: string, count: number, startMs = Date.now()): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const createdAt = startMs + index;
    const id = newId(new Date(createdAt));
    const record: ImageRecord = {
      id, hostId: workspaceId, blobKey: `images/${workspaceId}/${id}.png`, width: 1, height: 1, contentType: 'image/png',
      sizeBytes: 67, filename: `seed-${index}.png`, purpose: 'content', createdAt, lastPublishedAt: null,
    };
    await putImage(workspaceId, record);
    ids.push(id);
  }
  return ids.reverse();
}
