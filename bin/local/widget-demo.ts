import { listForms } from '../../shared/forms/forms-repository.js';
import { WIDGET_SCRIPT_PATH } from '../../shared/http/routes/docs.js';
import { findDemoWorkspaceId } from './demo-workspace.js';
import { DEMO_PARTNER_CODE } from './seed/events.js';
import { WIDGET_DEMO_FORM_NAME } from './seed/widget-demo.js';
import type { LocalRoute } from './server.js';
import { htmlPageHeaders, sourceHash } from '../../shared/http/security-headers.js';
import { BASE_CSS, EVENTS_CSS, FORM_CSS } from '../../widget/src/styles.js';

export const WIDGET_DEMO_PATH = '/widget/demo';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The seeded demo forms the page embeds: the feedback form (logic) and the order form (attendees). */
async function demoForms(): Promise<{ feedback?: string; order?: string }> {
  const workspaceId = await findDemoWorkspaceId();
  if (!workspaceId) return {};
  const { items } = await listForms(workspaceId, { sort: 'name', direction: 'asc', status: 'active' }, { page: 0, limit: 100 });
  return {
    feedback: items.find((form) => form.name === WIDGET_DEMO_FORM_NAME)?.id,
    order: items.find((form) => form.type === 'order')?.id,
  };
}

/** The page's own inline style and script, hashed into its Content-Security-Policy. */
const DEMO_STYLE = `
    body { font-family: system-ui, sans-serif; line-height: 1.45; margin: 0; color: #1f2328; background: #f6f8fa; }
    main { max-width: 960px; margin: 0 auto; padding: 16px; display: grid; gap: 32px; }
    section { background: #fff; border-radius: 12px; padding: 16px; }
    code { background: #eaeef2; padding: 0 4px; border-radius: 4px; overflow-wrap: anywhere; }
    /* Theming from the host page: the widgets read these custom properties through their shadow roots. */
    .themed { --boxoffice-accent: #6d28d9; --boxoffice-focus: #6d28d9; --boxoffice-radius: 10px; }
  `;
const DEMO_SCRIPT = `
  document.addEventListener('boxoffice:submitted', function (event) {
    document.getElementById('last-submission').textContent = 'Response ' + event.detail.id + ' received.';
  });
`;

/**
 * The demo page's CSP: its own origin's script (the widget) and calls (the API), its inline style and
 * script by hash, and the `<style>` each widget puts in its shadow root (the same constants the widget is
 * built from, so the hashes follow any change of its CSS). No site may frame it.
 */
export const WIDGET_DEMO_HEADERS = htmlPageHeaders({
  inlineScriptHashes: [sourceHash(DEMO_SCRIPT)],
  inlineStyleHashes: [sourceHash(DEMO_STYLE), sourceHash(BASE_CSS + EVENTS_CSS), sourceHash(BASE_CSS + FORM_CSS)],
});

/** The demo page: what a partner's and a host's pages look like with the two embeddables. */
export function renderWidgetDemo(apiBase: string, forms: { feedback?: string; order?: string }): string {
  const base = escapeHtml(apiBase);
  const formSection = (title: string, id: string | undefined, extra = '') => (id
    ? `<section aria-labelledby="${escapeHtml(id)}-title"><h2 id="${escapeHtml(id)}-title">${title}</h2>
    <boxoffice-form form-id="${escapeHtml(id)}" api-base="${base}"${extra}></boxoffice-form></section>`
    : `<section><h2>${title}</h2><p>The demo form is missing: start with a fresh database (<code>npm start</code> without <code>--data-dir</code>).</p></section>`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Boxoffice widgets demo</title>
  <style>${DEMO_STYLE}</style>
  <script src="${base}${WIDGET_SCRIPT_PATH}" async></script>
</head>
<body>
<main>
  <header>
    <h1>Boxoffice widgets demo</h1>
    <p>Both elements come from one script: <code>&lt;script src="${base}${WIDGET_SCRIPT_PATH}" async&gt;&lt;/script&gt;</code>.</p>
  </header>
  <section aria-labelledby="events-title">
    <h2 id="events-title">Upcoming events of <code>${DEMO_PARTNER_CODE}</code></h2>
    <boxoffice-events referral-code="${DEMO_PARTNER_CODE}" api-base="${base}" filter="upcoming" sort="start" limit="2"></boxoffice-events>
  </section>
  <div class="themed">${formSection('Event feedback (logic, every element type)', forms.feedback)}</div>
  ${formSection('Conference registration (order form, two tickets)', forms.order, ' attendees="2"')}
  <p id="last-submission" role="status"></p>
</main>
<script>${DEMO_SCRIPT}</script>
</body>
</html>
`;
}

/** GET /widget/demo on the local server: the demo page against the seeded demo data. */
export const serveWidgetDemo: LocalRoute = async (request, response) => {
  const path = request.path.replace(/\/$/, '');
  if (path !== WIDGET_DEMO_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const html = renderWidgetDemo(`http://${request.headers.host ?? '127.0.0.1'}`, await demoForms());
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...WIDGET_DEMO_HEADERS });
  response.end(request.method === 'HEAD' ? undefined : html);
  return true;
};
