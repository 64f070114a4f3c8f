import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { describe, expect, it } from 'vitest';
import { ReadableStream } from '../../../shared/aws/stream-web.js';

describe('node:stream/web as the bundles see it (loaded on first use)', () => {
  it('recognises, builds and exposes the real ReadableStream', async () => {
    const real = new NodeReadableStream();
    expect(real instanceof ReadableStream).toBe(true);
    expect({ _readableState: {} } instanceof ReadableStream).toBe(false);
    const built = new ReadableStream<string>({ start: (controller) => { controller.enqueue('a'); controller.close(); } });
    expect(built).toBeInstanceOf(NodeReadableStream);
    const chunks: string[] = [];
    for await (const chunk of built) chunks.push(chunk);
    expect(chunks).toEqual(['a']);
    expect(ReadableStream.from).toBe(NodeReadableStream.from);
  });
});
