import * as z from 'zod';
import { creationOrderKey, entityAttribute, itemKey, partitionOf, type ItemKey } from '../db/table-design.js';
import { dateTimeSchema, idSchema, pickFields } from '../model/primitives.js';
import { lazy } from '../model/lazy-schema.js';

/**
 * The form response model: the schemas of a submission, of its answer and of the stored response
 * the host reads, their types, the keys of every response item and the item <-> object mappers.
 * Routes build their request and response schemas from these; nothing here knows about HTTP.
 */

/**
 * zod's record drops an own `__proto__` key without a word (JSON.parse keeps it as a plain key), so a
 * respondent could send it and get 201 as if it were not there. It names no element: refuse it like any
 * other unknown id.
 */
const refuseProtoKey = (input: unknown, ctx: z.core.$RefinementCtx): unknown => {
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
    ctx.addIssue({ code: 'custom', message: 'no element of this form has this id', path: ['__proto__'], input });
  }
  return input;
};

const answersSchema = lazy(() => z.preprocess(refuseProtoKey, z.record(z.string(), z.unknown())).meta({
  description: 'Answers keyed by element id. Yes/No: boolean; Number: number; Date: `YYYY-MM-DD`; Select One: the option (or any text on "Other" types); '
    + 'Select Multiple: array of options (at most one Other text); File: an uploaded file as an absolute `https:` or `http:` URL or as an id (24 lowercase hex characters), any other text is 422; other types: string. '
    + 'Blank values (`null`, blank strings, empty arrays) count as no answer.',
}));

export const submitResponseBodySchema = lazy(() => z.strictObject({
  answers: answersSchema.meta({ description: 'Buyer answers (standalone forms: all answers).' }),
  attendees: z.array(answersSchema).max(500).optional()
    .meta({ description: 'Order forms: one answer map per attendee (ticket holder) for the `askAllAttendees` elements; required (>= 1) when the form has any. Forbidden on standalone forms.' }),
}).meta({
  id: 'SubmitFormResponse',
  example: { answers: { '6740f1a2c3d4e5f601234567': 'ada@example.com', '6740f1a2c3d4e5f601234568': true } },
}));

export const submittedResponseSchema = lazy(() => z.object({
  id: idSchema.meta({ description: 'Id of the stored response.' }),
  contactId: idSchema.optional().meta({ description: 'The contact created or updated from the Email question with `contactField: email`, when it was answered.' }),
}).meta({ id: 'SubmittedFormResponse' }));

export const formResponseSchema = lazy(() => z.object({
  id: idSchema,
  formId: idSchema,
  contactId: idSchema.optional().meta({ description: 'The contact the submission created or updated (from its Email question with `contactField: email`).' }),
  answers: z.record(z.string(), z.unknown()).meta({ description: 'Buyer answers as submitted, keyed by element id.' }),
  attendees: z.array(z.record(z.string(), z.unknown())).optional().meta({ description: 'Order forms: one answer map per attendee, as submitted.' }),
  createdAt: dateTimeSchema,
}).meta({
  id: 'FormResponse',
  example: {
    id: '6740f1a2c3d4e5f601234570', formId: '6740f1a2c3d4e5f601234567', contactId: '6740f1a2c3d4e5f601234571',
    answers: { '6740f1a2c3d4e5f601234568': 'ada@example.com', '6740f1a2c3d4e5f601234569': true }, createdAt: '2027-06-01T18:00:00.000Z',
  },
}));

/** What a respondent submits: buyer (or standalone) answers, and one answer map per attendee. */
export type Submission = z.infer<typeof submitResponseBodySchema>;
/** A stored form submission: the answers as submitted, and the contact it created or updated. */
export type FormResponse = z.infer<typeof formResponseSchema>;
export type SubmissionResult = z.infer<typeof submittedResponseSchema>;

export const FORM_RESPONSE_ENTITY = 'FormResponse';
export const FORM_RESPONSE_BY_CONTACT_ENTITY = 'FormResponseByContact';

/**
 * Key builders: the only place response keys are spelled.
 * - response: `WS#<ws>#FORMRESPONSE#<formId>` / `<responseId>`: one partition per form, listed by
 *   submission time through `byCreatedAt` (GSI3: the same partition, `<createdAt>#<id>`).
 * - by contact: `WS#<ws>#FORMRESPONSE#<formId>#CONTACT#<contactId>` / `<responseId>`: a keys-only
 *   copy written in the submission's transaction, so the `contactId` filter is a Query on that
 *   contact's responses to the form (responses never change, so it never goes stale).
 */
export const responseKeys = {
  partition: (workspaceId: string, formId: string) => `WS#${workspaceId}#FORMRESPONSE#${formId}`,
  response: (workspaceId: string, formId: string, id: string): ItemKey => itemKey(responseKeys.partition(workspaceId, formId), id),
  byContactPartition: (workspaceId: string, formId: string, contactId: string) => `${responseKeys.partition(workspaceId, formId)}#CONTACT#${contactId}`,
  byContact: (workspaceId: string, formId: string, contactId: string, id: string): ItemKey =>
    itemKey(responseKeys.byContactPartition(workspaceId, formId, contactId), id),
};

export function toResponseItem(workspaceId: string, response: FormResponse): Record<string, unknown> {
  const key = responseKeys.response(workspaceId, response.formId, response.id);
  return { ...key, ...creationOrderKey(key, response.createdAt, response.id), ...entityAttribute(FORM_RESPONSE_ENTITY), ...response };
}

/** The `contactId` projection of a response (only responses with a contact have one). */
export function toResponseByContactItem(workspaceId: string, response: FormResponse & { contactId: string }): Record<string, unknown> {
  const key = responseKeys.byContact(workspaceId, response.formId, response.contactId, response.id);
  return {
    ...key,
    ...creationOrderKey(key, response.createdAt, response.id),
    ...entityAttribute(FORM_RESPONSE_BY_CONTACT_ENTITY),
    responseId: response.id,
  };
}

/** Maps a stored item back to the shape the host reads. */
export function fromResponseItem(item: Record<string, unknown>): FormResponse {
  return { ...pickFields<FormResponse>(item, formResponseSchema), answers: (item.answers ?? {}) as FormResponse['answers'] };
}

/** The id a `contactId` projection points at. */
export function projectedResponseId(item: Record<string, unknown>): string {
  return item.responseId as string;
}

/** The workspace of a stored response item (`WS#<ws>#FORMRESPONSE#<formId>`), for backfills. */
export function workspaceOfResponseItem(item: Record<string, unknown>): string {
  const match = /^WS#(.+)#FORMRESPONSE#[^#]+$/.exec(partitionOf(item));
  if (!match?.[1]) throw new Error('Not a form response item.');
  return match[1];
}
