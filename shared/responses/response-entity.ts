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

/**
 * Key builders: the only place response keys are spelled.
 * - response: `WS#<ws>#FORMRESPONSE#<formId>` / `<responseId>`: one partition per form, so a Query
 *   lists a form's responses by submission time (ids are time-ordered).
 */
export const responseKeys = {
  partition: (workspaceId: string, formId: string) => `WS#${workspaceId}#FORMRESPONSE#${formId}`,
  response: (workspaceId: string, formId: string, id: string) => ({
    [TABLE_KEYS.partitionKey]: responseKeys.partition(workspaceId, formId),
    [TABLE_KEYS.sortKey]: id,
  }),
};

export function toResponseItem(workspaceId: string, response: FormResponse): Record<string, unknown> {
  return { ...responseKeys.response(workspaceId, response.formId, response.id), [TABLE_KEYS.entityType]: FORM_RESPONSE_ENTITY, ...response };
}
