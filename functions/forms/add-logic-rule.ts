import { implement } from '../../shared/http/operation.js';
import { formsRoutes } from '../../shared/http/routes/forms.js';
import { addLogicRule as addRule, inLogicRuleTerms, indexOfElement } from '../../shared/forms/form-operations.js';
import { changeForm } from '../../shared/forms/forms-service.js';

export const addLogicRule = implement(formsRoutes.addLogicRule, async ({ workspaceId, params, body, ifMatch }) => {
  let source = -1;
  let group = -1;
  const form = await changeForm(workspaceId, params.formId, ifMatch, (current) => {
    source = indexOfElement(current, params.elementId);
    const added = addRule(current, source, body);
    group = added.group;
    return added.form;
  }).catch((error: unknown) => { throw inLogicRuleTerms(error, source, group); });
  return { data: form.elements[indexOfElement(form, params.elementId)] };
});
