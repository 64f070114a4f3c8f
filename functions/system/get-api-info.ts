import { API_NAME, config } from '../../shared/config.js';
import { implement } from '../../shared/http/operation.js';
import { systemRoutes } from '../../shared/http/routes/system.js';

export const getApiInfo = implement(systemRoutes.apiInfo, async ({ baseUrl }) => ({
  api: API_NAME,
  version: config().apiVersion,
  docs: `${baseUrl}/docs`,
}));
