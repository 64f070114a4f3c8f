import { batchGetItems } from '../db/batch-get.js';
import { getItem, versionIs } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { ConflictError, ValidationError } from '../errors.js';
import type { SortDirection } from '../model/primitives.js';
import {
  formKeys, formListQuery, fromFormItem, projectedFormId, projectionChanges, toFormItem, toFormPointerItem, workspaceOfPointer,
  type Form, type FormSort, type FormStatus,
} from './form-model.js';

const tooLargeError = () => new ValidationError({ path: 'elements', message: 'The form is too large to store (about 400 KB with all its elements). Split it into smaller forms.' });

/** Commits a form write; a form is one item, so its size is bounded by DynamoDB's item limit (a 422, not a 500). */
async function commitForm(tx: Transaction): Promise<void> {
  await tx.commit({ onTooLarge: tooLargeError });
}

/** Adds the status projection that follows a change from `before` to `after`. */
function withProjections(tx: Transaction, workspaceId: string, before: Form | undefined, after: Form): Transaction {
  const { puts, deletes } = projectionChanges(workspaceId, before, after);
  for (const key of deletes) tx.delete(key);
  for (const item of puts) tx.put(item);
  return tx;
}

/**
 * Creates a form, its public pointer and its status projection in ONE transaction (nothing
 * half-written); the id is fresh, so the conditions only guard against a (theoretical) id clash.
 */
export async function createForm(workspaceId: string, form: Form): Promise<void> {
  const clash = { ...notExists(), onFailed: () => new ConflictError('A form with this id already exists.') };
  const tx = transaction().put(toFormItem(workspaceId, form), clash).put(toFormPointerItem(workspaceId, form.id), clash);
  await commitForm(withProjections(tx, workspaceId, undefined, form));
}

/**
 * The workspace owning a form, from its pointer; `undefined` for an unknown form id. Eventually
 * consistent: the pointer never changes once written.
 */
export async function getFormWorkspaceId(formId: string): Promise<string | undefined> {
  const item = await getItem(formKeys.pointer(formId));
  return item ? workspaceOfPointer(item) : undefined;
}

/**
 * Reads one form of the workspace; another workspace's form is simply absent. Eventually consistent
 * unless `consistent` (the read of a read-modify-write, which decides on it).
 */
export async function getForm(workspaceId: string, id: string, options: { consistent?: boolean } = {}): Promise<Form | undefined> {
  const item = await getItem(formKeys.form(workspaceId, id), options);
  return item ? fromFormItem(item) : undefined;
}

/**
 * Replaces the form if, and only if, it still has the version that was read (a StaleVersionError
 * otherwise), with its status projection, in ONE transaction: the whole form with its elements is one
 * item, so this one condition is what keeps concurrent edits from being lost.
 */
export async function saveForm(workspaceId: string, current: Form, next: Form): Promise<void> {
  const tx = transaction().put(toFormItem(workspaceId, next), versionIs(current.version, 'form'));
  await commitForm(withProjections(tx, workspaceId, current, next));
}

export interface FormListQuery {
  sort: FormSort;
  direction: SortDirection;
  status?: FormStatus | undefined;
}

/**
 * One page of the workspace's forms. Each sort order reads a key order made for it (the form
 * partition for `createdAt`, GSI1 for `name`, GSI2 for `updatedAt`); with `status`, the status
 * projections in the same three orders, then one BatchGet of the page. One Query per cursor page,
 * whatever the workspace's other forms.
 */
export async function listForms(workspaceId: string, list: FormListQuery, request: PageRequest): Promise<Page<Form>> {
  const scope = { owner: workspaceId, list: 'forms', shape: { sort: list.sort, direction: list.direction, status: list.status } };
  const { query, projected } = formListQuery(workspaceId, list.status, list.sort, list.direction);
  const page = await queryPage(query, request, scope);
  if (!projected) return { ...page, items: page.items.map(fromFormItem) };
  const ids = page.items.map(projectedFormId);
  const found = new Map((await batchGetItems(ids.map((id) => formKeys.form(workspaceId, id)))).map((item) => [item.id as string, fromFormItem(item)]));
  // A form whose status changed between the two reads no longer matches: leave it out.
  return { ...page, items: ids.flatMap((id) => found.get(id) ?? []).filter((form) => form.status === list.status) };
}
