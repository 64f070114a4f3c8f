import { updateContact as updateContactInWorkspace } from '../../shared/contacts/contacts-service.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const updateContact = implement(contactsRoutes.updateContact, async ({ workspaceId, params, body, ifMatch }) => ({
  data: await updateContactInWorkspace(workspaceId, params.id, body, ifMatch),
}));
