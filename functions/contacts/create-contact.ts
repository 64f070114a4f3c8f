import { createContactInWorkspace } from '../../shared/contacts/contacts-service.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const createContact = implement(contactsRoutes.createContact, async ({ workspaceId, body }) => ({
  data: await createContactInWorkspace(workspaceId, body),
}));
