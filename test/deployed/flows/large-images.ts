import { MAX_IMAGE_BYTES } from '../../../shared/images/image-limits.js';
import { paddedPng } from '../../../shared/images/sample-images.js';
import type { Flow, FlowContext } from '../support/flows.js';

const MiB = 1024 * 1024;

/** Registers an image of `size` bytes through the two-step upload; the PUT goes to storage, not the API. */
async function twoStep({ call, check }: FlowContext, label: string, size: number, width: number, height: number): Promise<void> {
  const bytes = paddedPng(width, height, size);
  const started = await call(`${label}: start upload`, 'POST', '/v1/assets/images/uploads', { body: { filename: `${label}.png`, contentType: 'image/png', sizeBytes: size } });
  const upload = started.body?.data?.upload as { url: string; headers: Record<string, string> } | undefined;
  if (!upload) return check(false, `${label}: no upload URL`);
  const wrongLength = await fetch(upload.url, { method: 'PUT', headers: { ...upload.headers, 'Content-Length': String(size - 1) }, body: bytes.subarray(0, size - 1) });
  check(wrongLength.status === 403, `${label}: a PUT of another length than signed answered ${wrongLength.status}, not 403`);
  const early = await call(`${label}: complete before the bytes`, 'POST', `/v1/assets/images/uploads/${started.body.data.id as string}/complete`);
  check(early.status === 409, `${label}: completing before the bytes answered ${early.status}`);
  const sent = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
  check(sent.status === 200, `${label}: the PUT to the upload URL answered ${sent.status}: ${await sent.text()}`);
  const completed = await call(`${label}: complete`, 'POST', `/v1/assets/images/uploads/${started.body.data.id as string}/complete`);
  check(completed.status === 201 && completed.body?.data?.sizeBytes === size && completed.body?.data?.width === width, `${label}: complete answered ${completed.status} ${completed.text.slice(0, 300)}`);
  await call(`${label}: get image`, 'GET', `/v1/assets/images/${completed.body?.data?.id as string}`);
}

/** Image size limits: the single-request upload up to 4 MiB, 413 above (never a 5xx), two-step up to 25 MiB. */
export const largeImagesFlow: Flow = {
  name: 'large images: single-request limit and two-step uploads',
  async run(context) {
    const { call } = context;
    const png = { 'Content-Type': 'image/png' };
    await call('4 MiB in one request', 'POST', '/v1/assets/images?filename=max.png', { raw: paddedPng(64, 64, MAX_IMAGE_BYTES), headers: png });
    await call('just above 4 MiB in one request (the function answers)', 'POST', '/v1/assets/images?filename=over.png', { raw: paddedPng(64, 64, MAX_IMAGE_BYTES + 1), headers: png });
    await call('5 MiB in one request (the edge answers)', 'POST', '/v1/assets/images?filename=five.png', { raw: paddedPng(64, 64, 5 * MiB), headers: png });
    await twoStep(context, 'five-mib', 5 * MiB, 640, 480);
    await twoStep(context, 'twenty-mib', 20 * MiB, 1600, 1200);
  },
};
