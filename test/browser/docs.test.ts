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
/** What the browser reported as refused by the Content-Security-Policy while the page rendered. */
const cspViolations: string[] = [];

let docsHeaders: Record<string, string> = {};

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
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  // (Browser code is passed as text: the test project's TypeScript has no DOM types.)
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI));`);
  const response = await page.goto(`${api.url}/docs`);
  docsHeaders = response?.headers() ?? {};
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

  it('declares its icon inline, so browsers ask for no /favicon.ico (a 404 in every console)', async () => {
    // Act
    const icon = await page.evaluate(`document.querySelector('link[rel="icon"]')?.getAttribute('href') ?? null`);

    // Assess
    expect(icon).toBe('data:,');
  });

  it('keeps the API key a user authorizes with out of localStorage', async () => {
    // Act: authorize as the "Authorize" dialog does (with the persistence option), then read what the page stored
    const stored = await page.evaluate(`(async () => {
      window.ui.authActions.authorizeWithPersistOption({ apiKey: { name: 'apiKey', schema: { type: 'http', scheme: 'bearer' }, value: 'bo_live_docs-test-key' } });
      await new Promise((done) => setTimeout(done, 200));
      return JSON.stringify(Object.entries(localStorage));
    })()`);

    // Assess
    expect(stored).not.toContain('bo_live_docs-test-key');
  });

  it('renders under a Content-Security-Policy that allows only its own assets, with no violation reported', () => {
    // Assess
    expect(docsHeaders['content-security-policy']).toContain("default-src 'none'");
    expect(docsHeaders['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(docsHeaders['x-content-type-options']).toBe('nosniff');
    expect(cspViolations).toEqual([]);
  });

  it('refuses a script injected into the page (only the hashed inline script may run)', async () => {
    // Prepare
    const probe = await context.newPage();
    await probe.goto(`${api.url}/docs`);

    // Act
    const ran = await probe.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedScriptRan = true;';
      document.body.appendChild(script);
      return window.injectedScriptRan === true;
    })()`);
    await probe.close();

    // Assess
    expect(ran).toBe(false);
  });

  it('cannot be framed by another page', async () => {
    // Prepare: a page of another origin (localhost, not 127.0.0.1) on the same machine, so that only
    // the docs page's own headers decide whether it may be framed.
    const framing = await context.newPage();
    await framing.goto(api.url.replace('127.0.0.1', 'localhost') + '/health/');

    // Act
    await framing.evaluate(`new Promise((resolve) => {
      const iframe = document.createElement('iframe');
      iframe.addEventListener('load', () => resolve());
      iframe.src = ${JSON.stringify(`${api.url}/docs`)};
      document.body.appendChild(iframe);
    })`);
    const frame = framing.frames().find((candidate) => candidate !== framing.mainFrame());
    const framedTitle = await frame?.evaluate('document.title').catch(() => '');
    await framing.close();

    // Assess
    expect(frame).toBeDefined();
    expect(framedTitle).not.toContain('documentation');
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
