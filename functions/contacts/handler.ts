import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { createContact } from './create-contact.js';
import { getContact } from './get-contact.js';
import { listContacts } from './list-contacts.js';
import { updateContact } from './update-contact.js';

export const operations = [createContact, listContacts, getContact, updateContact];
export const handler = createGroupHandler('contacts', operations, { idempotency: runIdempotent });
