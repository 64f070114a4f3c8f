import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ensureDemoWorkspace } from '../../bin/local/demo-workspace.js';
import { DEMO_PARTNER_CODE } from '../../bin/local/seed/events.js';
import { seeders } from '../../bin/local/seed/index.js';
import { createSeedClient } from '../../bin/local/seed/seed-client.js';
import { WIDGET_DEMO_FORM_NAME } from '../../bin/local/seed/widget-demo.js';
import { WIDGET_DEMO_PATH } from '../../bin/local/widget-demo.js';
import { formatDateRange } from '../../widget/src/format.js';
import { startApi, type TestApi } from '../integration/support/api.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const LOCALE = 'en-US';
const TIME_ZONE = 'America/Toronto';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

let api: TestApi;
let demoKey: string;
let context: BrowserContext;
let userDataDir: string;
let feedbackFormId: string;
/**
 * A partner's site on another origin (`localhost` and its own port, the API being on `127.0.0.1`): the
 * widgets run there and call the API cross-origin. Served over the loopback, because Chromium does not
 * let pages on other address spaces call loopback addresses.
 */
let partnerSite: Server;
let partnerUrl: string;
const partnerPages = new Map<string, string>();

beforeAll(async () => {
  api = await startApi();
  // The demo data exactly as `npm start` seeds it, through the same server.
  const demo = await ensureDemoWorkspace();
  demoKey = demo.apiKey;
  const client = createSeedClient(api.url, demo.workspaceId, demo.apiKey);
  for (const seeder of seeders) await seeder.seed(client);
  const forms = await api.request('GET', '/v1/forms?limit=100', { key: demoKey });
  feedbackFormId = forms.body.data.find((form: Json) => form.name === WIDGET_DEMO_FORM_NAME).id;
  partnerSite = createServer((request, response) => {
    response.writeHead(partnerPages.has(request.url ?? '') ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(partnerPages.get(request.url ?? '') ?? 'not found');
  });
  await new Promise<void>((resolve) => partnerSite.listen(0, '127.0.0.1', resolve));
  partnerUrl = `http://localhost:${(partnerSite.address() as AddressInfo).port}`;
  userDataDir = mkdtempSync(join(tmpdir(), 'boxoffice-widgets-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, locale: LOCALE, timezoneId: TIME_ZONE, viewport: { width: 1280, height: 900 },
  });
});

afterAll(async () => {
  await context?.close();
  await api?.close();
  await new Promise((resolve) => partnerSite?.close(resolve));
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** A fresh tab on the demo page, failing the test on any script error or Content-Security-Policy violation in the page. */
async function openDemo(options: { bypassCsp?: boolean } = {}): Promise<{ page: Page; errors: string[]; apiCalls: string[]; headers: Record<string, string> }> {
  const page = await context.newPage();
  // For tools that inject their own script (axe-core), as a browser extension would.
  if (options.bypassCsp) await (await context.newCDPSession(page)).send('Page.setBypassCSP', { enabled: true });
  const errors: string[] = [];
  const apiCalls: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  // (Browser code as text: the test project's TypeScript has no DOM types.)
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI));`);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/partner/events' || url.pathname.startsWith('/forms/')) apiCalls.push(`${request.method()} ${url.pathname}`);
  });
  const response = await page.goto(`${api.url}${WIDGET_DEMO_PATH}`);
  await page.locator('boxoffice-events li').first().waitFor();
  await page.locator('boxoffice-form form').first().waitFor();
  return { page, errors, apiCalls, headers: response?.headers() ?? {} };
}

/** A partner page on another origin embedding the given HTML after the script tag. */
async function openPartnerPage(body: string): Promise<Page> {
  const path = `/page-${partnerPages.size}.html`;
  partnerPages.set(path, `<!doctype html><html lang="en"><head><title>Partner</title><script src="${api.url}/widget/v1/boxoffice.js"></script></head><body><main>${body}</main></body></html>`);
  const page = await context.newPage();
  await page.goto(`${partnerUrl}${path}`);
  return page;
}

async function shown(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 5_000 });
}

async function gone(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'hidden', timeout: 5_000 });
}

/** The text of the error element a control announces through aria-describedby. */
function errorOf(control: Locator): Promise<string> {
  return control.evaluate((element) => {
    const root = element.getRootNode() as unknown as { getElementById(id: string): { textContent: string | null } | null };
    const id = (element.getAttribute('aria-describedby') ?? '').split(' ').find((candidate: string) => candidate.endsWith('-error'));
    return id ? root.getElementById(id)?.textContent ?? '' : '';
  });
}

/** Resolves with the detail of the next `boxoffice:submitted` event on the page. */
function nextSubmission(page: Page): Promise<Json> {
  // Runs in the page: DOM globals are reached through globalThis (the test code compiles without the DOM lib).
  return page.evaluate(() => new Promise<Json>((resolve) => {
    const { document } = globalThis as unknown as { document: EventTarget };
    document.addEventListener('boxoffice:submitted', (event) => resolve((event as unknown as { detail: Json }).detail), { once: true });
  }));
}

describe('GET /widget/demo', () => {
  it('runs both widgets under a Content-Security-Policy that allows only its own assets, with no violation', async () => {
    // Act
    const { page, errors, headers } = await openDemo();
    await page.waitForLoadState('networkidle');
    await page.close();

    // Assess
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(errors).toEqual([]);
  });
});

describe('<boxoffice-events>', () => {
  it('lists the seeded partner\'s upcoming events with dates, places and prices, and loads more', async () => {
    // Prepare
    const { page, errors, apiCalls } = await openDemo();
    const loaded = [...apiCalls];
    const listing = await api.request('GET', `/partner/events?referral_code=${DEMO_PARTNER_CODE}&filter=upcoming&sort=start&limit=10`);
    const expected = listing.body.data as Json[];
    const events = page.locator('boxoffice-events');
    // Act
    const firstPage = await events.locator('h3').allInnerTexts();
    const firstCard = await events.locator('li').first().innerText();
    await events.getByRole('button', { name: 'Load more events' }).click();
    await events.locator('li').nth(2).waitFor();
    // Assess
    expect(expected).toHaveLength(3);
    expect(firstPage).toEqual(expected.slice(0, 2).map((event) => event.name));
    expect(await events.locator('h3').allInnerTexts()).toEqual(expected.map((event) => event.name));
    expect(firstCard.replace(/\s+/g, ' ')).toContain(formatDateRange(expected[0]?.start, expected[0]?.end, LOCALE, TIME_ZONE).replace(/\s+/g, ' '));
    expect(firstCard).toContain('Harbourfront Stage, Montreal');
    expect(firstCard).toContain('$45.00 – $120.00');
    expect(await events.locator('li').nth(2).innerText()).toContain('CA$10.00');
    expect(await events.getByRole('button', { name: 'Load more events' }).count()).toBe(0);
    // Focus moves to the first event added, so keyboard users continue from there.
    expect(await events.evaluate((host) => host.shadowRoot?.activeElement?.textContent)).toBe(expected[2]?.name);
    expect(errors).toEqual([]);
    // One request per element on load, although the script upgraded elements that already had their attributes.
    expect(loaded.filter((call) => call === 'GET /partner/events')).toHaveLength(1);
    expect(loaded.filter((call) => call.startsWith('GET /forms/'))).toHaveLength(2);
    await page.close();
  });

  it('says clearly when the partner is unknown or the settings are invalid, from a partner\'s own site', async () => {
    // Prepare
    const page = await openPartnerPage(`
      <boxoffice-events id="unknown" referral-code="NO-SUCH-PARTNER" api-base="${api.url}"></boxoffice-events>
      <boxoffice-events id="invalid" referral-code="${DEMO_PARTNER_CODE}" filter="soon" api-base="${api.url}"></boxoffice-events>`);
    // Act
    const unknown = page.locator('#unknown').getByRole('alert');
    const invalid = page.locator('#invalid').getByRole('alert');
    await unknown.getByText(/./).first().waitFor();
    await invalid.getByText(/./).first().waitFor();
    // Assess
    expect(await unknown.innerText()).toContain('the partner code is unknown');
    expect(await invalid.innerText()).toContain('These events could not be listed');
    expect(await invalid.innerText()).toContain('filter');
    await page.close();
  });
});

describe('<boxoffice-form>', () => {
  it('renders each element type with its input, and rows side by side on wide screens', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    // Act
    const inputType = (label: string) => form.getByLabel(label, { exact: true }).getAttribute('type');
    // Assess
    expect(await form.getByLabel(/^Email/).getAttribute('type')).toBe('email');
    expect(await form.getByLabel(/^Email/).getAttribute('autocomplete')).toBe('email');
    expect(await inputType('Phone')).toBe('tel');
    expect(await form.getByLabel('Phone', { exact: true }).getAttribute('aria-describedby')).toMatch(/-help/);
    expect(await form.getByLabel('First name').getAttribute('autocomplete')).toBe('given-name');
    expect(await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByRole('checkbox').count()).toBe(3);
    expect(await form.getByRole('group', { name: 'How did you hear about us?' }).getByRole('radio').count()).toBe(4);
    expect(await form.getByRole('group', { name: 'Would you come again?' }).getByRole('radio').allInnerTexts()).toEqual(['', '']);
    // Select One with dropdown: a select whose options are the linked property's labels.
    const size = form.getByLabel('T-shirt size');
    expect(await size.evaluate((element) => element.tagName)).toBe('SELECT');
    expect(await size.locator('option').allInnerTexts()).toEqual(['Choose a size', 'Small', 'Medium', 'Large']);
    expect(await inputType('Share a photo of the evening')).toBe('url');
    expect(await form.getByText('A link to your file (images).').count()).toBe(1);
    expect(await form.getByText('Choose at least 1, at most 2.').count()).toBe(1);
    expect(await form.getByText('More questions appear as you answer.').count()).toBe(1);
    expect(await form.getByRole('img', { name: 'Poster of the evening' }).count()).toBe(1);
    const email = await form.getByLabel(/^Email/).boundingBox();
    const phone = await form.getByLabel('Phone', { exact: true }).boundingBox();
    expect(Math.abs((email?.y ?? 0) - (phone?.y ?? -1))).toBeLessThan(2);
    expect(phone?.x).toBeGreaterThan((email?.x ?? 0) + (email?.width ?? 0));
    // Narrow: the same row stacks.
    await page.setViewportSize({ width: 375, height: 800 });
    const stackedEmail = await form.getByLabel(/^Email/).boundingBox();
    const stackedPhone = await form.getByLabel('Phone', { exact: true }).boundingBox();
    expect(stackedPhone?.y).toBeGreaterThan((stackedEmail?.y ?? 0) + (stackedEmail?.height ?? 0));
    expect(Math.abs((stackedEmail?.x ?? 0) - (stackedPhone?.x ?? -1))).toBeLessThan(2);
    await page.close();
  });

  it('reveals with all_of and hides with none_of as sessions are ticked', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    const sessions = form.getByRole('group', { name: 'Which sessions did you attend?' });
    const exercises = form.getByLabel('How many workshop exercises did you finish?');
    const keptAway = form.getByLabel('What kept you from the sessions?');
    // Act + Assess: all_of [Keynote, Workshop]
    await gone(exercises);
    await shown(keptAway);
    await sessions.getByLabel('Keynote').check();
    await gone(exercises);
    await gone(keptAway);
    await sessions.getByLabel('Workshop').check();
    await shown(exercises);
    await sessions.getByLabel('Keynote').uncheck();
    await gone(exercises);
    // none_of [all three]: back when nothing is ticked
    await sessions.getByLabel('Workshop').uncheck();
    await shown(keptAway);
    await page.close();
  });

  it('reveals with any_of and with the Other answer once its text is typed', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    const heard = form.getByRole('group', { name: 'How did you hear about us?' });
    const who = form.getByLabel('Who told you about us?');
    const where = form.getByLabel('Where was that?');
    // Act + Assess
    await gone(who);
    await heard.getByLabel('A friend').check();
    await shown(who);
    await heard.getByLabel('Search').check();
    await gone(who);
    await heard.getByLabel('Somewhere else', { exact: true }).check();
    const otherText = heard.getByRole('textbox', { name: 'Somewhere else (please specify)' });
    await shown(otherText);
    expect(await otherText.evaluate((element) => element === (element.getRootNode() as unknown as { activeElement: unknown }).activeElement)).toBe(true);
    await gone(where);
    await otherText.fill('A podcast');
    await shown(where);
    await otherText.fill('');
    await gone(where);
    await page.close();
  });

  it('reveals with Yes/No is and is_not, where no answer is not No', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    const again = form.getByRole('group', { name: 'Would you come again?' });
    const when = form.getByLabel('When could you come next?');
    const whyNot = form.getByLabel('What would bring you back?');
    // Act + Assess: unanswered, `is true` is hidden and `is_not true` shown
    await gone(when);
    await shown(whyNot);
    await again.getByLabel('Yes').check();
    await shown(when);
    await gone(whyNot);
    expect(await when.getAttribute('type')).toBe('date');
    expect(await when.getAttribute('min')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await again.getByLabel('No').check();
    await gone(when);
    await shown(whyNot);
    await page.close();
  });

  it('shows each 422 detail beside its field, moves focus there, and announces a summary', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Keynote').check();
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Workshop').check();
    await form.getByLabel('How many workshop exercises did you finish?').fill('11');
    // Act
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await form.getByRole('alert').getByText('answers need attention').waitFor();
    // Assess
    const email = form.getByLabel(/^Email/);
    expect(await errorOf(email)).toBe('Email is required.');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await errorOf(form.getByLabel('How many workshop exercises did you finish?'))).toBe('How many workshop exercises did you finish? must be at most 10.');
    expect(await form.getByRole('group', { name: /Topics for next year/ }).innerText()).toContain('Topics for next year is required: choose at least 1.');
    expect(await form.evaluate((host) => host.shadowRoot?.activeElement?.getAttribute('type'))).toBe('email');
    await page.close();
  });

  it('submits what is visible, dispatches boxoffice:submitted, and the host reads the response', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    const email = `widget-${Date.now()}@example.com`;
    await form.getByLabel(/^Email/).fill(email);
    await form.getByLabel('First name').fill('Wanda');
    await form.getByRole('group', { name: 'How did you hear about us?' }).getByLabel('Somewhere else', { exact: true }).check();
    await form.getByRole('group', { name: 'How did you hear about us?' }).getByRole('textbox').fill('A podcast');
    await form.getByLabel('Where was that?').fill('Radio show');
    await form.getByRole('group', { name: 'Would you come again?' }).getByLabel('No').check();
    await form.getByLabel('What would bring you back?').fill('More jazz');
    await form.getByLabel('T-shirt size').selectOption({ label: 'Medium' });
    await form.getByRole('group', { name: /Topics for next year/ }).getByLabel('Jazz').check();
    // Typed, then hidden again by the answer "Search": never sent.
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Keynote').check();
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Workshop').check();
    await form.getByLabel('How many workshop exercises did you finish?').fill('4');
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Workshop').uncheck();
    const submitted = nextSubmission(page);
    // Act
    await form.getByRole('button', { name: 'Send feedback' }).click();
    const detail = await submitted;
    // Assess
    expect(detail.id).toMatch(/^[a-f0-9]{24}$/);
    expect(await form.getByRole('status').innerText()).toContain('Thank you!');
    const list = await api.request('GET', `/v1/forms/${feedbackFormId}/responses?contactId=${detail.contactId}`, { key: demoKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const response = list.body.data[0];
    expect(response.id).toBe(detail.id);
    const publicForm = (await api.request('GET', `/forms/${feedbackFormId}`)).body.data;
    const byPrompt = Object.fromEntries(Object.entries(response.answers).map(([id, value]) => [publicForm.elements.find((element: Json) => element.id === id).prompt, value]));
    expect(byPrompt).toEqual({
      Email: email,
      'First name': 'Wanda',
      'How did you hear about us?': 'A podcast',
      'Where was that?': 'Radio show',
      'Would you come again?': false,
      'What would bring you back?': 'More jazz',
      'T-shirt size': 'm',
      'Topics for next year': ['Jazz'],
      'Which sessions did you attend?': ['Keynote'],
    });
    await page.close();
  });

  it('is usable with the keyboard alone: Tab between questions, Space to choose, Enter to submit', async () => {
    // Prepare
    const { page } = await openDemo();
    const form = page.locator('boxoffice-form').first();
    const focusedLabel = () => form.evaluate((host) => {
      const active = host.shadowRoot?.activeElement;
      return active?.closest('label')?.textContent ?? active?.getAttribute('type') ?? active?.tagName ?? '';
    });
    await form.getByRole('group', { name: 'Which sessions did you attend?' }).getByLabel('Keynote').focus();
    // Act
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    const second = await focusedLabel();
    await page.keyboard.press('Space');
    await shown(form.getByLabel('How many workshop exercises did you finish?'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await form.getByRole('alert').getByText('answers need attention').waitFor();
    // Assess
    expect(second).toBe('Workshop');
    expect(await form.getByLabel('How many workshop exercises did you finish?').inputValue()).toBe('3');
    expect(await form.evaluate((host) => host.shadowRoot?.activeElement?.getAttribute('type'))).toBe('email');
    await page.close();
  });

  it('takes its colours from CSS custom properties set on the host page', async () => {
    // Prepare
    const { page } = await openDemo();
    const background = (index: number) => page.locator('boxoffice-form').nth(index).getByRole('button').last()
      .evaluate((button) => (globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string } }).getComputedStyle(button).backgroundColor);
    // Act
    const themed = await background(0);
    const plain = await background(1);
    // Assess: the demo page sets --boxoffice-accent: #6d28d9 around the first form only.
    expect(themed).toBe('rgb(109, 40, 217)');
    expect(plain).toBe('rgb(11, 92, 173)');
    await page.close();
  });

  it('repeats the attendee section per ticket on order forms, each with its own logic', async () => {
    // Prepare
    const { page } = await openDemo();
    const order = page.locator('boxoffice-form').nth(1);
    const attendees = order.getByRole('group', { name: /^Attendee \d$/ });
    // Act
    await attendees.nth(1).getByLabel('Gluten free').check();
    // Assess
    expect(await attendees.count()).toBe(2);
    await shown(attendees.nth(1).getByLabel('Allergy details'));
    await gone(attendees.nth(0).getByLabel('Allergy details'));
    await page.close();
  });

  it('posts from a partner\'s site on another origin (CORS) and reports an unavailable form', async () => {
    // Prepare
    const page = await openPartnerPage(`
      <boxoffice-form id="feedback" form-id="${feedbackFormId}" api-base="${api.url}"></boxoffice-form>
      <boxoffice-form id="missing" form-id="000000000000000000000000" api-base="${api.url}"></boxoffice-form>`);
    const form = page.locator('#feedback');
    await form.locator('form').waitFor();
    await form.getByLabel(/^Email/).fill(`partner-${Date.now()}@example.com`);
    await form.getByRole('group', { name: /Topics for next year/ }).getByLabel('Food').check();
    const submitted = nextSubmission(page);
    // Act
    await form.getByRole('button', { name: 'Send feedback' }).click();
    // Assess
    expect((await submitted).id).toMatch(/^[a-f0-9]{24}$/);
    expect(await page.locator('#missing').getByRole('alert').innerText()).toContain('This form is not available');
    await page.close();
  });
});

describe('accessibility and screenshots', () => {
  it('has no serious or critical axe-core violation on the demo page, before and after a 422', async () => {
    // Prepare
    const { page } = await openDemo({ bypassCsp: true });
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    const scan = () => page.evaluate(async () => {
      type Result = { id: string; impact: string; nodes: { target: unknown[] }[] };
      const { axe, document } = globalThis as unknown as { axe: { run: (context: unknown) => Promise<{ violations: Result[]; passes: Result[] }> }; document: unknown };
      const { violations, passes } = await axe.run(document);
      // Nodes inside a shadow root have a nested target (host selector, then the selector in the shadow tree).
      const inShadow = (rule: string) => passes.find((result) => result.id === rule)?.nodes.filter((node) => Array.isArray(node.target[0])).length ?? 0;
      return {
        serious: violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.map((node) => node.target) })),
        labelledInWidgets: inShadow('label'),
        contrastCheckedInWidgets: inShadow('color-contrast'),
      };
    });
    // Act
    const initial = await scan();
    await page.locator('boxoffice-form').first().getByRole('button', { name: 'Send feedback' }).click();
    await page.locator('boxoffice-form').first().getByRole('alert').getByText('answers need attention').waitFor();
    const withErrors = await scan();
    // Assess
    expect(initial.serious).toEqual([]);
    expect(withErrors.serious).toEqual([]);
    // The scan reached into both widgets' shadow roots.
    expect(initial.labelledInWidgets).toBeGreaterThan(10);
    expect(initial.contrastCheckedInWidgets).toBeGreaterThan(10);
    await page.close();
  });

  it('renders the demo page at 375 px and 1280 px wide', async () => {
    // Prepare
    const { page } = await openDemo();
    // Act + Assess
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const image = await page.screenshot({ fullPage: true });
      expect(image.readUInt32BE(16)).toBe(width);
      // Page content (dates, ids) changes from run to run: the committed images are refreshed on
      // request, so that `npm test` leaves the working tree clean.
      const target = process.env.UPDATE_SCREENSHOTS || !existsSync(join(SCREENSHOTS, `widgets-demo-${width}.png`)) ? SCREENSHOTS : join(import.meta.dirname, '../../.local/screenshots');
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, `widgets-demo-${width}.png`), image);
    }
    await page.close();
  });
});
