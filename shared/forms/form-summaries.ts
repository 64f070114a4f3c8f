import { batchGetItems } from '../db/batch-get.js';
import { formKeys } from './form-key-model.js';
import type { Form } from './form-model.js';

/*
 * What other domains read of the forms they reference, by key. Apart from the repository so that
 * their functions do not load the form's schemas.
 */

/** What other resources show of a form they reference. */
export interface FormSummary {
  name: string;
  type: Form['type'];
}

/**
 * Name and type of many forms at once (e.g. a checkout's `orderFormId`): one BatchGetItem per 100
 * distinct ids, projecting only what is shown. Absent ids (or another workspace's) are missing.
 */
export async function getFormSummaries(workspaceId: string, ids: readonly string[]): Promise<Map<string, FormSummary>> {
  const keys = [...new Set(ids)].map((id) => formKeys.form(workspaceId, id));
  const items = await batchGetItems(keys, { attributes: ['id', 'name', 'type'] });
  return new Map(items.map((item) => [item.id as string, { name: item.name as string, type: item.type as Form['type'] }]));
}

/** Display names of many forms at once (`formName` on checkouts). */
export async function getFormNames(workspaceId: string, ids: readonly string[]): Promise<Map<string, string>> {
  const summaries = await getFormSummaries(workspaceId, ids);
  return new Map([...summaries].map(([id, summary]) => [id, summary.name]));
}
