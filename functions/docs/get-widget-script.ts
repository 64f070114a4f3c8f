import { implement, HttpResult } from '../../shared/http/operation.js';
import { widgetRoutes } from '../../shared/http/routes/docs.js';
import { loadWidgetScript } from './widget-script.js';

/** The path is versioned (a breaking change gets /widget/v2/), so an hour of caching is safe (API.md: >= 3600). */
const ONE_HOUR_SECONDS = 3_600;

export const getWidgetScript = implement(widgetRoutes.widgetScript, async () =>
  new HttpResult(200, await loadWidgetScript(), {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': `public, max-age=${ONE_HOUR_SECONDS}`,
  }));
