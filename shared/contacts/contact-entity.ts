import { TABLE_KEYS } from '../db/table-design.js';

export const CONTACT_STATUSES = ['opted-in', 'unsubscribed'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export interface Contact {
  id: string;
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  status?: ContactStatus;
  /** Token of the saved card at the payment processor, e.g. `pm_card_visa`. */
  defaultPaymentMethod?: string;
  /** Values of contact CRM properties, keyed by property id. */
  properties: Record<string, unknown>;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export const CONTACT_ENTITY = 'Contact';
export const CONTACT_EMAIL_GUARD_ENTITY = 'ContactEmailGuard';

/** Emails are unique case-insensitively, so the guard is keyed on this normal form. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Key builders: the only place contact keys are spelled.
 * - contact: `WS#<ws>#CONTACT` / `<id>`: a Query on the partition lists by creation time.
 * - email guard: `WS#<ws>#CONTACTEMAIL` / `<lower(email)>`, holding `contactId`: its existence makes
 *   the email unique, a GetItem on it finds a contact by email, and a Query on the partition lists
 *   contacts in email order.
 */
export const contactKeys = {
  contactPartition: (workspaceId: string) => `WS#${workspaceId}#CONTACT`,
  contact: (workspaceId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: contactKeys.contactPartition(workspaceId),
    [TABLE_KEYS.sortKey]: id,
  }),
  emailGuardPartition: (workspaceId: string) => `WS#${workspaceId}#CONTACTEMAIL`,
  emailGuard: (workspaceId: string, email: string) => ({
    [TABLE_KEYS.partitionKey]: contactKeys.emailGuardPartition(workspaceId),
    [TABLE_KEYS.sortKey]: normalizeEmail(email),
  }),
};

export function toContactItem(workspaceId: string, contact: Contact): Record<string, unknown> {
  return { ...contactKeys.contact(workspaceId, contact.id), [TABLE_KEYS.entityType]: CONTACT_ENTITY, ...contact };
}

/** Maps a stored item back to the public shape, dropping key attributes and absent optionals. */
export function fromContactItem(item: Record<string, unknown>): Contact {
  const optional = (name: string) => (typeof item[name] === 'string' ? { [name]: item[name] as string } : {});
  return {
    id: item.id as string,
    email: item.email as string,
    ...optional('firstName'),
    ...optional('lastName'),
    ...optional('phone'),
    ...optional('status'),
    ...optional('defaultPaymentMethod'),
    properties: (item.properties as Record<string, unknown> | undefined) ?? {},
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  } as Contact;
}
