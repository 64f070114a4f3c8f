import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidgetScript } from '../../widget/build-widget.js';
import { startApi, type TestApi } from './support/api.js';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('GET /widget/v1/boxoffice.js', () => {
  it('serves the script built from widget/src, cacheable for at least an hour, with CORS, without a key', async () => {
    // Act
    const response = await api.request('GET', '/widget/v1/boxoffice.js');
    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(Number(/max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1])).toBeGreaterThanOrEqual(3600);
    expect(response.headers.get('cache-control')).toContain('public');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.text).toBe(await buildWidgetScript());
    expect(response.text).toContain('boxoffice-events');
    expect(response.text).toContain('boxoffice-form');
  });

  it('is a 404 under another version or name', async () => {
    // Act
    const responses = await Promise.all(['/widget/v2/boxoffice.js', '/widget/v1/other.js'].map((path) => api.request('GET', path)));
    // Assess
    expect(responses.map((response) => response.status)).toEqual([404, 404]);
  });
});
