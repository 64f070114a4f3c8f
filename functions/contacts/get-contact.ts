import { requireContact } from '../../shared/contacts/contacts-service.js';
import { implement } from '../../shared/http/operation.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';

export const getContact = implement(contactsRoutes.getContact, async ({ workspaceId, params }) => ({
  data: await requireContact(workspaceId, params.id),
}));
