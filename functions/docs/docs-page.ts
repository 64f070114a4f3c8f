import { API_NAME } from '../../shared/config.js';
import { htmlPageHeaders, sourceHash } from '../../shared/http/security-headers.js';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The page's only inline script. It holds nothing request-specific (the document URL is read from a
 * data attribute), so its hash is fixed and the Content-Security-Policy allows exactly this script.
 */
const INIT_SCRIPT = `
    window.addEventListener('load', function () {
      var node = document.getElementById('swagger-ui');
      window.ui = SwaggerUIBundle({
        url: node.getAttribute('data-spec-url'),
        dom_id: '#swagger-ui',
        deepLinking: true,
        // The key stays in this page's memory: persisted, it would sit in localStorage in clear text.
        persistAuthorization: false,
        tryItOutEnabled: false,
      });
    });
  `;

/**
 * Headers of the docs page: a CSP allowing only its own (self-hosted) Swagger UI assets, the hashed
 * init script, and calls to its own origin (the document, "Try it out"); no site may frame it.
 */
export const DOCS_PAGE_HEADERS = htmlPageHeaders({ inlineScriptHashes: [sourceHash(INIT_SCRIPT)] });

/**
 * The Swagger UI page. Asset and document URLs are absolute (from the API root the client called), so
 * the page works under a stage prefix and with or without a trailing slash on `/docs`.
 */
export function renderDocsPage(baseUrl: string): string {
  const root = escapeHtml(baseUrl);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(API_NAME)} documentation</title>
  <link rel="stylesheet" href="${root}/docs/swagger-ui.css">
  <link rel="icon" href="data:,">
</head>
<body>
  <div id="swagger-ui" data-spec-url="${root}/openapi.json"></div>
  <script src="${root}/docs/swagger-ui-bundle.js"></script>
  <script>${INIT_SCRIPT}</script>
</body>
</html>
`;
}
