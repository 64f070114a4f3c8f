import { listContactsOfWorkspace } from '../../shared/contacts/contacts-service.js';
import { listResult } from '../../shared/db/query.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const listContacts = implement(contactsRoutes.listContacts, async ({ workspaceId, query }) => {
  const { items, hasMore } = await listContactsOfWorkspace(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
