import { listContactsOfWorkspace } from '../../shared/contacts/contacts-service.js';
import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const listContacts = implement(contactsRoutes.listContacts, async ({ workspaceId, query }) => {
  const { page = 0, limit, cursor, ...list } = query;
  const request = { page, limit, cursor };
  return listResult(await listContactsOfWorkspace(workspaceId, list, request), request);
});
