import type { TestApi, TestWorkspace } from './api.js';

/**
 * Real events for tests that only need an event id (invoice lines, payouts, balances): references are
 * checked, so the id must name an event of the workspace. One event per workspace and label, created
 * through the API on first use. `api` is read at call time (files start their server in `beforeAll`).
 */
export function eventIdsOf(api: () => TestApi): (workspace: TestWorkspace, label?: string) => Promise<string> {
  const ids = new Map<string, Promise<string>>();
  return (workspace, label = 'main') => {
    const key = `${workspace.workspaceId}:${label}`;
    let id = ids.get(key);
    if (!id) {
      id = api().request('POST', '/v1/events', {
        key: workspace.apiKey,
        body: { name: `Event ${label}`, start: '2030-06-01T18:00:00Z', end: '2030-06-01T23:00:00Z' },
      }).then((response) => {
        if (response.status !== 201) throw new Error(`create event ${label}: ${response.status} ${response.text}`);
        return response.body.data.id as string;
      });
      ids.set(key, id);
    }
    return id;
  };
}
