import { publicFormSchema } from '../../forms/public-form.js';
import { formResponseSchema, submitResponseBodySchema, submittedResponseSchema } from '../../responses/response-model.js';
import { lazy } from '../../model/lazy-schema.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams, idSchema } from '../schemas.js';

export const responseListQuerySchema = lazy(() => cursorListQuery(['createdAt'], 'createdAt', {
  contactId: idSchema.optional().meta({ description: 'Only the responses that created or updated this contact.' }),
}, { defaultDirection: 'desc' }));

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
    params: lazy(() => idParams('formId')),
    success: { status: 200, description: 'The form.', schema: lazy(() => dataResponse(publicFormSchema)) },
    // No key, so no authorizer: the form's own DynamoDB reads throttling after retries are its 503.
    errors: [503],
  }),
  listFormResponses: defineRoute({
    group: 'responses',
    operation: 'listFormResponses',
    method: 'GET',
    path: '/v1/forms/{formId}/responses',
    auth: 'key',
    tags,
    summary: 'List a form\'s responses',
    description: 'Generic list, newest first (`direction=asc` for oldest first); `contactId` lists one contact\'s responses. Every sort and filter is served by an index: a page costs the same at any depth. Another workspace\'s form is a 404.',
    params: lazy(() => idParams('formId')),
    query: responseListQuerySchema,
    success: { status: 200, description: 'One page of responses.', schema: lazy(() => cursorListResponse(formResponseSchema).meta({ id: 'FormResponseList' })) },
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
    params: lazy(() => idParams('formId', 'responseId')),
    success: { status: 200, description: 'The response.', schema: lazy(() => dataResponse(formResponseSchema)) },
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
      'When an Email question with `contactField: email` is answered, the contact of that email (case-insensitive) is created in the form\'s workspace, in the same transaction as the response:',
      '`contactField` answers set firstName, lastName, phone and status (Yes `opted-in`, No `unsubscribed`), buyer answers to questions linked to contact properties set those properties (attendee answers, and an Other text that is no option of the property, stay in the response only).',
      'An answer to a question with a `contactField` must also pass that contact field\'s own rule (as in `CreateContact`, e.g. its length limit), else the submission is 422 on the answer\'s path and nothing is written.',
      'An existing contact is only completed: empty fields and property values are filled, a non-empty one and its `status` never change; the submitted values stay on the response.',
      'Order and ticket property answers are kept in the stored response only. `Idempotency-Key` replays the first response.',
    ].join(' '),
    params: lazy(() => idParams('formId')),
    body: submitResponseBodySchema,
    success: { status: 201, description: 'The response was stored.', schema: lazy(() => dataResponse(submittedResponseSchema)) },
    errors: [400, 404, 409, 415, 422, 503],
  }),
};
