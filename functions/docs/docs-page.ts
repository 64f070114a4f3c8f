import { API_NAME } from '../../shared/config.js';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

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
</head>
<body>
  <div id="swagger-ui" data-spec-url="${root}/openapi.json"></div>
  <script src="${root}/docs/swagger-ui-bundle.js"></script>
  <script>
    window.addEventListener('load', function () {
      var node = document.getElementById('swagger-ui');
      window.ui = SwaggerUIBundle({
        url: node.getAttribute('data-spec-url'),
        dom_id: '#swagger-ui',
        deepLinking: true,
        persistAuthorization: true,
        tryItOutEnabled: false,
      });
    });
  </script>
</body>
</html>
`;
}
