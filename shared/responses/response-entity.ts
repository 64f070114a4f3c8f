import { TABLE_KEYS } from '../db/table-design.js';

/** A stored form submission: the answers as submitted, and the contact it created or updated. */
export interface FormResponse {
  id: string;
  formId: string;
  answers: Record<string, unknown>;
  attendees?: Record<string, unknown>[];
  contactId?: string;
  createdAt: string;
}

export const FORM_RESPONSE_ENTITY = 'FormResponse';
export const FORM_RESPONSE_BY_CONTACT_ENTITY = 'FormResponseByContact';

/**
 * Key builders: the only place response keys are spelled.
 * - response: `WS#<ws>#FORMRESPONSE#<formId>` / `<responseId>`: one partition per form, so a Query
 *   lists a form's responses by submission time (ids are time-ordered).
 * - by contact: `WS#<ws>#FORMRESPONSE#<formId>#CONTACT#<contactId>` / `<responseId>`: a keys-only
 *   copy written in the submission's transaction, so the `contactId` filter is a Query on that
 *   contact's responses to the form (responses never change, so it never goes stale).
 */
export const responseKeys = {
  partition: (workspaceId: string, formId: string) => `WS#${workspaceId}#FORMRESPONSE#${formId}`,
  response: (workspaceId: string, formId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: responseKeys.partition(workspaceId, formId),
    [TABLE_KEYS.sortKey]: id,
  }),
  byContactPartition: (workspaceId: string, formId: string, contactId: string) => `${responseKeys.partition(workspaceId, formId)}#CONTACT#${contactId}`,
  byContact: (workspaceId: string, formId: string, contactId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: responseKeys.byContactPartition(workspaceId, formId, contactId),
    [TABLE_KEYS.sortKey]: id,
  }),
};

export function toResponseItem(workspaceId: string, response: FormResponse): Record<string, unknown> {
  return { ...responseKeys.response(workspaceId, response.formId, response.id), [TABLE_KEYS.entityType]: FORM_RESPONSE_ENTITY, ...response };
}

/** The `contactId` projection of a response (only responses with a contact have one). */
export function toResponseByContactItem(workspaceId: string, response: FormResponse & { contactId: string }): Record<string, unknown> {
  return {
    ...responseKeys.byContact(workspaceId, response.formId, response.contactId, response.id),
    [TABLE_KEYS.entityType]: FORM_RESPONSE_BY_CONTACT_ENTITY,
    responseId: response.id,
  };
}

/** Maps a stored item back to the shape the host reads. */
export function fromResponseItem(item: Record<string, unknown>): FormResponse {
  return {
    id: item.id as string,
    formId: item.formId as string,
    ...(typeof item.contactId === 'string' ? { contactId: item.contactId } : {}),
    answers: (item.answers ?? {}) as Record<string, unknown>,
    ...(Array.isArray(item.attendees) ? { attendees: item.attendees as Record<string, unknown>[] } : {}),
    createdAt: item.createdAt as string,
  };
}
