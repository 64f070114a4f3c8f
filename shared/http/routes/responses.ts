import * as z from 'zod';
import { publicFormSchema } from '../../forms/public-form.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, dateTimeSchema, idParams, idSchema } from '../schemas.js';

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

const answersSchema = z.preprocess(refuseProtoKey, z.record(z.string(), z.unknown())).meta({
  description: 'Answers keyed by element id. Yes/No: boolean; Number: number; Date: `YYYY-MM-DD`; Select One: the option (or any text on "Other" types); '
    + 'Select Multiple: array of options (at most one Other text); File: an uploaded file URL or id; other types: string. '
    + 'Blank values (`null`, blank strings, empty arrays) count as no answer.',
});

export const submitResponseBodySchema = z.strictObject({
  answers: answersSchema.meta({ description: 'Buyer answers (standalone forms: all answers).' }),
  attendees: z.array(answersSchema).max(500).optional()
    .meta({ description: 'Order forms: one answer map per attendee (ticket holder) for the `askAllAttendees` elements; required (>= 1) when the form has any. Forbidden on standalone forms.' }),
}).meta({
  id: 'SubmitFormResponse',
  example: { answers: { '6740f1a2c3d4e5f601234567': 'ada@example.com', '6740f1a2c3d4e5f601234568': true } },
});

export const submittedResponseSchema = z.object({
  id: idSchema.meta({ description: 'Id of the stored response.' }),
  contactId: idSchema.optional().meta({ description: 'The contact created or updated from the Email question with `contactField: email`, when it was answered.' }),
}).meta({ id: 'SubmittedFormResponse' });

export const formResponseSchema = z.object({
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
});

export const responseListQuerySchema = cursorListQuery(['createdAt'], 'createdAt', {
  contactId: idSchema.optional().meta({ description: 'Only the responses that created or updated this contact.' }),
}, { defaultDirection: 'desc' });

const tags = ['Forms'];

export const responsesRoutes = {
  getPublicForm: defineRoute({
    group: 'responses',
    operation: 'getPublicForm',
    method: 'GET',
    path: '/forms/{formId}',
    auth: 'public',
    cors: true,
    tags,
    summary: 'Read a form as respondents see it',
    description: [
      'Public: no API key; CORS `*`, so the `<boxoffice-form>` widget (or any page) can render the form on any site.',
      'Only `active` forms: an unknown form and a `draft` or `archived` one are all 404 `not_found`.',
      'The body holds what rendering needs and nothing about the host: no workspace, status or version, and per element no `propertyId`/`propertyData`.',
      'Questions linked to a select property carry its option values as `options` (what to submit, and what logic `optionIndices` point into) and their display texts as `optionLabels`.',
      'Elements limited to cart items keep `forEventItems: []` (hidden: a respondent here has no cart).',
    ].join(' '),
    params: idParams('formId'),
    success: { status: 200, description: 'The form.', schema: dataResponse(publicFormSchema) },
  }),
  listFormResponses: defineRoute({
    group: 'responses',
    operation: 'listFormResponses',
    method: 'GET',
    path: '/v1/forms/{formId}/responses',
    auth: 'key',
    tags,
    summary: 'List a form\'s responses',
    description: 'Generic list (`page`, `limit`), newest first (`direction=asc` for oldest first). `contactId` lists only the responses of one contact, read from a per-contact copy of the response keys (a Query, never a filter). Another workspace\'s form is a 404.',
    params: idParams('formId'),
    query: responseListQuerySchema,
    success: { status: 200, description: 'One page of responses.', schema: cursorListResponse(formResponseSchema).meta({ id: 'FormResponseList' }) },
    errors: [400],
  }),
  getFormResponse: defineRoute({
    group: 'responses',
    operation: 'getFormResponse',
    method: 'GET',
    path: '/v1/forms/{formId}/responses/{responseId}',
    auth: 'key',
    tags,
    summary: 'Get a response',
    description: 'One response of one of your forms; another workspace\'s response (or form) is a 404.',
    params: idParams('formId', 'responseId'),
    success: { status: 200, description: 'The response.', schema: dataResponse(formResponseSchema) },
  }),
  submitFormResponse: defineRoute({
    group: 'responses',
    operation: 'submitFormResponse',
    method: 'POST',
    path: '/forms/{formId}/responses',
    auth: 'public',
    cors: true,
    tags,
    summary: 'Submit a response to a form',
    description: [
      'Public: no API key; CORS `*` so forms embedded on any site can post. The form must be `active`: an unknown form and a `draft` or `archived` form are all 404 `not_found` (a draft is not reachable at its URL).',
      'Answers are validated against every element rule; visibility follows the form logic (each attendee instance with its own answers), and an element hidden by logic is neither required nor accepted (answering it is 422).',
      'Unknown element ids, answers to static elements and answers in the wrong section are 422; details paths are `answers.<elementId>` and `attendees[i].<elementId>`.',
      'Elements limited by `forEventItems` are hidden: a submission has no cart.',
      'When an Email question with `contactField: email` is answered, the contact of that email (case-insensitive) is created or updated in the form\'s workspace, in the same transaction as the response:',
      '`contactField` answers set firstName, lastName, phone and status (Yes `opted-in`, No `unsubscribed`), answers to questions linked to contact properties set those properties (an Other text that is no option of the property is kept in the response only).',
      'Order and ticket property answers are kept in the stored response only. `Idempotency-Key` replays the first response.',
    ].join(' '),
    params: idParams('formId'),
    body: submitResponseBodySchema,
    success: { status: 201, description: 'The response was stored.', schema: dataResponse(submittedResponseSchema) },
    errors: [400, 404, 409, 415, 422],
  }),
};
