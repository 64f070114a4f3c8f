import { followRename } from '../../shared/checkouts/checkout-renames.js';
import { formKeys } from '../../shared/forms/form-model.js';
import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { editSettings } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const editFormSettings = implement(formsRoutes.editFormSettings, async ({ workspaceId, params, body, ifMatch }) => {
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) => editSettings(current, body));
  // Checkouts sorted by order-form name keep the name in their list keys: they follow a rename.
  if (body.name !== undefined) await followRename(workspaceId, { field: 'form', id: form.id, name: form.name, key: formKeys.form(workspaceId, form.id) });
  return { data: form };
});
