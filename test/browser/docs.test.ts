import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { routeTable } from '../../shared/http/routes.js';
import { startApi, type TestApi } from '../integration/support/api.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium.js';

let api: TestApi;
let context: BrowserContext;
let userDataDir: string;
let page: Page;
const foreignRequests: string[] = [];

beforeAll(async () => {
  api = await startApi();
  userDataDir = mkdtempSync(join(tmpdir(), 'boxoffice-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  page = await context.newPage();
  // The docs must work offline: anything not served by the API itself is recorded and refused.
  await page.route('**/*', async (route) => {
    if (route.request().url().startsWith(api.url)) return route.continue();
    foreignRequests.push(route.request().url());
    return route.abort();
  });
  await page.goto(`${api.url}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await context?.close();
  await api?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('GET /docs', () => {
  it('renders the API title and version from /openapi.json', async () => {
    // Act
    const title = await page.locator('.info .title').innerText();

    // Assess
    expect(title).toContain('Boxoffice API');
    expect(title).toContain('1.0.0');
  });

  it('lists every operation of the route table', async () => {
    // Act
    const listed = await page.locator('.opblock').evaluateAll((blocks) => blocks.map((block) => {
      const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
      const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
      return `${method} ${path}`;
    }));

    // Assess
    expect(listed.sort()).toEqual(routeTable.map((route) => `${route.method} ${route.path}`).sort());
  });

  it('loads its script and styles from the API itself, never from a CDN', () => {
    // Assess
    expect(foreignRequests).toEqual([]);
  });
});

describe('GET /openapi.json', () => {
  it('serves the document with servers pointing at the API and CORS for tools on other origins', async () => {
    // Act
    const response = await api.request('GET', '/openapi.json');

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.servers).toEqual([{ url: api.url }]);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /docs/{asset}', () => {
  it('serves the Swagger UI stylesheet with its content type, cacheable', async () => {
    // Act
    const response = await api.request('GET', '/docs/swagger-ui.css');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('max-age=');
  });

  it('answers 404 for any file that is not one of the docs assets', async () => {
    // Act
    const response = await api.request('GET', '/docs/..%2Fpackage.json');

    // Assess
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });
});
