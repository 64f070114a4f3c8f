import { describe, expect, it } from 'vitest';
import type { BlobUrls } from '../../../shared/blob-store/blob-store.js';
import { resolveWorkspaceImageReferences } from '../../../shared/images/images-service.js';

const store: BlobUrls = { publicUrl: (key, base) => `${base}/blobs/${key}` };

describe('resolveWorkspaceImageReferences', () => {
  it('answers https/http URLs as they are and leaves out any other text an event may hold from before references were checked', async () => {
    // Prepare: no asset id among them, so nothing is read.
    const references = ['https://cdn.example.com/a.png', 'http://example.com/b.jpg', 'javascript:alert(1)', 'not a url', 'data:image/png;base64,AAAA']
      .map((reference) => ({ workspaceId: 'ws1', reference }));

    // Act
    const resolve = await resolveWorkspaceImageReferences(references, store, 'https://api.example.com');

    // Assess
    expect(references.map(resolve)).toEqual(['https://cdn.example.com/a.png', 'http://example.com/b.jpg', undefined, undefined, undefined]);
  });
});
