import type { Flow } from '../support/flows.js';

/** The system and docs groups, and what the gateway answers by itself (401, 403, 404, 405, preflight). */
export const systemAndGatewayFlow: Flow = {
  name: 'system, docs and gateway behaviour',
  async run({ call, check }) {
    const health = await call('health', 'GET', '/health/', { key: 'none' });
    check(health.body?.status === 'ok', `GET /health/ reports ${JSON.stringify(health.body)}`);
    await call('api info without a key', 'GET', '/v1/', { key: 'none' });
    await call('api info with a malformed key', 'GET', '/v1/', { key: { authorization: 'Bearer nope' } });
    await call('api info', 'GET', '/v1/');
    await call('unknown path', 'GET', '/v1/no-such-thing');
    await call('wrong method', 'DELETE', '/health/', { key: 'none' });
    await call('read-only key on a write', 'POST', '/v1/properties', { key: 'ro', body: { type: 'Text', name: 'Seat', objectType: 'ticket' } });
    await call('docs page', 'GET', '/docs', { key: 'none' });
    const document = await call('openapi document', 'GET', '/openapi.json', { key: 'none' });
    check(typeof document.body?.paths === 'object', 'GET /openapi.json has no paths');
    await call('preflight of a public route', 'OPTIONS', '/partner/events', {
      key: 'none', headers: { Origin: 'https://widget.example', 'Access-Control-Request-Method': 'GET' },
    });
  },
};
