import { itemKey, type ItemKey } from '../db/table-design.js';
import type { FormStatus } from './form-model.js';

/*
 * The keys of every form item, zod-free: other domains that only read or check a form by key (a
 * checkout's order form) load this, not the form's schemas (about 10 KB of every bundle that would
 * otherwise carry them). `form-model.ts` re-exports them.
 */

/**
 * Key builders: the only place form keys are spelled.
 * - form: `WS#<ws>#FORM` / `<id>`: the form and ALL its elements are one item (one version to
 *   guard); listed by creation time through `byCreatedAt` (GSI3: the same partition, sort key
 *   `<createdAt>#<id>`; ids order by second only). Also placed in
 *   the name order (GSI1 `WS#<ws>#FORMS_BY_NAME` / `<lower(name)>#<id>`) and the update order (GSI2
 *   `WS#<ws>#FORMS_BY_UPDATED` / `<updatedAt>#<id>`).
 * - status projection (keys only, written in the same transaction as the form):
 *   `WS#<ws>#FORM_BY_STATUS#<status>` / `<id>`, placed in the same two orders under
 *   `WS#<ws>#FORMS_BY_NAME#<status>` and `WS#<ws>#FORMS_BY_UPDATED#<status>`: the `status` filter in
 *   each sort is one partition of the table or of an index.
 * - pointer: `FORM#<id>` / `POINTER`, holding `workspaceId`: the public routes have no API key, so
 *   they find the form's workspace from our own data, never from the request.
 */
export const formKeys = {
  partition: (workspaceId: string) => `WS#${workspaceId}#FORM`,
  form: (workspaceId: string, id: string): ItemKey => itemKey(formKeys.partition(workspaceId), id),
  byStatusPartition: (workspaceId: string, status: FormStatus) => `WS#${workspaceId}#FORM_BY_STATUS#${status}`,
  byStatus: (workspaceId: string, status: FormStatus, id: string): ItemKey => itemKey(formKeys.byStatusPartition(workspaceId, status), id),
  byNamePartition: (workspaceId: string, status?: FormStatus) => `WS#${workspaceId}#FORMS_BY_NAME${status === undefined ? '' : `#${status}`}`,
  byUpdatedPartition: (workspaceId: string, status?: FormStatus) => `WS#${workspaceId}#FORMS_BY_UPDATED${status === undefined ? '' : `#${status}`}`,
  pointer: (id: string): ItemKey => itemKey(`FORM#${id}`, 'POINTER'),
};
