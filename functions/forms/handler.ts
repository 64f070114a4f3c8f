import { createGroupHandler } from '../../shared/http/group-handler.js';
import { runIdempotent } from '../../shared/http/idempotency.js';
import { addFormElement } from './add-form-element.js';
import { addLogicRule } from './add-logic-rule.js';
import { createForm } from './create-form.js';
import { deleteFormElement } from './delete-form-element.js';
import { duplicateForm } from './duplicate-form.js';
import { editFormSettings } from './edit-form-settings.js';
import { getForm } from './get-form.js';
import { listForms } from './list-forms.js';
import { moveFormElement } from './move-form-element.js';
import { removeLogicRule } from './remove-logic-rule.js';
import { replaceFormLayout } from './replace-form-layout.js';
import { toggleElementOther } from './toggle-element-other.js';
import { updateFormElement } from './update-form-element.js';

export const operations = [
  createForm, listForms, getForm, editFormSettings, replaceFormLayout, duplicateForm, addFormElement, updateFormElement,
  deleteFormElement, toggleElementOther, moveFormElement, addLogicRule, removeLogicRule,
];
export const handler = createGroupHandler('forms', operations, { idempotency: runIdempotent });
