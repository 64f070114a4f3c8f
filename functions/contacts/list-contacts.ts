import { listContactsOfWorkspace } from '../../shared/contacts/contacts-service.js';
import { legacyListResult as listResult } from '../../shared/db/legacy-query.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const listContacts = implement(contactsRoutes.listContacts, async ({ workspaceId, query }) => {
  const { items, hasMore } = await listContactsOfWorkspace(workspaceId, query);
  return listResult(items, query.page, query.limit, hasMore);
});
