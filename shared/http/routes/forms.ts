import * as z from 'zod';
import { elementPatchSchema, formElementSchema } from '../../forms/form-element-model.js';
import {
  FORM_STATUSES, createFormBodySchema, duplicateFormBodySchema, editFormBodySchema, formSchema, layoutBodySchema, logicRuleBodySchema,
  moveElementBodySchema, toggleOtherBodySchema,
} from '../../forms/form-model.js';
import { defineRoute } from '../route.js';
import { cursorListQuery, cursorListResponse, dataResponse, idParams } from '../schemas.js';
import { lazy } from '../../model/lazy-schema.js';

const tags = ['Forms'];
const formParams = lazy(() => idParams('formId'));
const elementParams = lazy(() => idParams('formId', 'elementId'));
const formResponse = lazy(() => dataResponse(formSchema));
const elementResponse = lazy(() => dataResponse(formElementSchema));

export const formsRoutes = {
  createForm: defineRoute({
    group: 'forms', operation: 'createForm', method: 'POST', path: '/v1/forms', auth: 'key', tags,
    summary: 'Create a form',
    description: 'Creates an empty form (`elements: []`, `rows: []`, `attendeeRowsStart: 0`). `type: order` makes an order form '
      + '(`isEventForm: true`) with a buyer section and an attendee section; `type` is fixed for good. Example: '
      + '`{"name": "Workshop registration", "type": "standalone"}`.',
    body: createFormBodySchema,
    success: { status: 201, description: 'The new form.', schema: formResponse },
    errors: [422],
  }),
  listForms: defineRoute({
    group: 'forms', operation: 'listForms', method: 'GET', path: '/v1/forms', auth: 'key', tags,
    summary: 'List forms',
    description: 'Generic list. Every sort and filter is served by an index: a page costs the same at any depth.',
    query: lazy(() => cursorListQuery(['name', 'createdAt', 'updatedAt'], 'createdAt', { status: z.enum(FORM_STATUSES).optional() })),
    success: { status: 200, description: 'One page of forms.', schema: lazy(() => cursorListResponse(formSchema)) },
    errors: [400],
  }),
  getForm: defineRoute({
    group: 'forms', operation: 'getForm', method: 'GET', path: '/v1/forms/{formId}', auth: 'key', tags,
    summary: 'Get a form',
    description: 'Linked questions carry `propertyData` read from their CRM property.',
    params: formParams,
    success: { status: 200, description: 'The form.', schema: formResponse },
  }),
  editFormSettings: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'editFormSettings', method: 'PATCH', path: '/v1/forms/{formId}', auth: 'key', tags,
    summary: 'Edit form settings',
    description: `Only the fields provided change (\`null\` clears \`nameHidden\`/\`submitButtonAlign\`); \`type\` or \`isEventForm\` other than the stored value is 422.`,
    params: formParams,
    body: editFormBodySchema,
    success: { status: 200, description: 'The updated form.', schema: formResponse },
    errors: [409, 422],
  }),
  replaceFormLayout: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'replaceFormLayout', method: 'PUT', path: '/v1/forms/{formId}/layout', auth: 'key', tags,
    summary: 'Replace the layout',
    description: 'Every element in exactly one column, fractions in (0, 1] summing to 1 per row (within 1e-9); on order forms '
      + `\`askAllAttendees\` elements at or after \`attendeeRowsStart\`, the others before it.`,
    params: formParams,
    body: layoutBodySchema,
    success: { status: 200, description: 'The form with its new layout.', schema: formResponse },
    errors: [409, 422],
  }),
  duplicateForm: defineRoute({
    group: 'forms', operation: 'duplicateForm', method: 'POST', path: '/v1/forms/{formId}/duplicate', auth: 'key', tags,
    summary: 'Duplicate a form',
    description: 'Copies all elements (new ids), layout and logic. The copy is named `[Copy] <name>` (the original name cut so the whole stays within 200 characters) and is a `draft` unless `name`/`status` override it.',
    params: formParams,
    body: duplicateFormBodySchema,
    success: { status: 201, description: 'The full duplicated form.', schema: formResponse },
    errors: [422],
  }),
  addFormElement: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'addFormElement', method: 'POST', path: '/v1/forms/{formId}/elements', auth: 'key', tags,
    summary: 'Add an element',
    description: 'Appends the element in a new full-width row: at the end of the buyer section on order forms (at `attendeeRowsStart`, '
      + 'which moves down by one), or at the end of the form. An order-form element sent with `askAllAttendees: true` goes to the end '
      + 'of the attendee section instead. Example: `{"type": "Select One", "prompt": "T-shirt size", "options": ["S", "M", "L"]}`.',
    params: formParams,
    body: formElementSchema,
    success: { status: 201, description: 'The new element, with its id.', schema: elementResponse },
    errors: [409, 422],
  }),
  updateFormElement: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'updateFormElement', method: 'PATCH', path: '/v1/forms/{formId}/elements/{elementId}', auth: 'key', tags,
    summary: 'Update an element',
    description: `Only the fields provided change; \`null\` removes an optional field. The type cannot change. The result is validated as a whole: a 422 names this element's fields by their path in the body, others as \`elements[i]\`.`,
    params: elementParams,
    body: elementPatchSchema,
    success: { status: 200, description: 'The updated element.', schema: elementResponse },
    errors: [409, 422],
  }),
  deleteFormElement: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'deleteFormElement', method: 'DELETE', path: '/v1/forms/{formId}/elements/{elementId}', auth: 'key', tags,
    summary: 'Delete an element',
    description: 'Removes its column (and its row when emptied; the other columns of the row are widened to fill it), the logic groups '
      + 'that reveal it, and renumbers every `elementIndex`/`revealedElementIndex` past it.',
    params: elementParams,
    success: { status: 204, description: 'Deleted.' },
    errors: [409, 422],
  }),
  toggleElementOther: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'toggleElementOther', method: 'POST', path: '/v1/forms/{formId}/elements/{elementId}/other', auth: 'key', tags,
    summary: 'Toggle the Other option',
    description: '`{"enabled": true, "otherPrompt": "Something else"}` turns `Select One` into `Select One or "Other"` (and `Select Multiple` into '
      + '`Select Multiple with "Other"`); `{"enabled": false}` turns it back and removes `otherPrompt` (and -1 from its logic groups). 422 on non-selection elements.',
    params: elementParams,
    body: toggleOtherBodySchema,
    success: { status: 200, description: 'The element.', schema: elementResponse },
    errors: [409, 422],
  }),
  moveFormElement: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'moveFormElement', method: 'POST', path: '/v1/forms/{formId}/elements/{elementId}/move', auth: 'key', tags,
    summary: 'Move an element between sections',
    description: 'Order forms only. The element leaves its row and gets a new full-width row at the end of the target section; '
      + '`askAllAttendees` follows the section. 422 if an attendee element would then reveal a buyer element, or if a question with a '
      + '`contactField` would go to the attendee section (contact fields are buyer answers).',
    params: elementParams,
    body: moveElementBodySchema,
    success: { status: 200, description: 'The form.', schema: formResponse },
    errors: [409, 422],
  }),
  addLogicRule: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'addLogicRule', method: 'POST', path: '/v1/forms/{formId}/elements/{elementId}/logic-rules', auth: 'key', tags,
    summary: 'Add a logic rule',
    description: 'The path element is the source (selection or Yes/No question). Selection: `{"revealedElementId": "...", "condition": '
      + '{"optionIndices": [0, -1], "operator": "any_of"}}`; Yes/No: `{"condition": {"selectionType": "is", "value": true}}` (no answer is not `false`). '
      + 'A rule that would leave elements never shown (a reveal cycle nothing outside it reveals) is 422.',
    params: elementParams,
    body: logicRuleBodySchema,
    success: { status: 201, description: 'The source element with its logic groups.', schema: elementResponse },
    errors: [409, 422],
  }),
  removeLogicRule: defineRoute({
    ifMatch: true,
    group: 'forms', operation: 'removeLogicRule', method: 'DELETE',
    path: '/v1/forms/{formId}/elements/{elementId}/logic-rules/{revealedElementId}', auth: 'key', tags,
    summary: 'Remove logic rules',
    description: 'Removes every group of the source that reveals the element; `logicGroups` disappears when none remain. 404 when there is no such rule.',
    params: lazy(() => idParams('formId', 'elementId', 'revealedElementId')),
    success: { status: 200, description: 'The source element.', schema: elementResponse },
    errors: [409],
  }),
};
