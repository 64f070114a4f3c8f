import { batchGetItems } from '../db/batch-get.js';
import { getItem } from '../db/conditional.js';
import { queryPage, type Page, type PageRequest } from '../db/query.js';
import { notExists } from '../db/table-design.js';
import { transaction, type Transaction } from '../db/transaction.js';
import { addContactWrite, type ContactWrite } from '../contacts/contacts-repository.js';
import { ConflictError, ValidationError } from '../errors.js';
import type { SortDirection } from '../model/primitives.js';
import { outboxEvents } from '../webhooks/webhook-outbox.js';
import { fromResponseItem, projectedResponseId, responseKeys, toResponseByContactItem, toResponseItem, type FormResponse } from './response-model.js';

/**
 * A concurrent submission (or contact change) created the contact of this email first. Nothing was
 * written: read the contact again and merge into it.
 */
export class SubmissionContactRaceError extends ConflictError {
  constructor() {
    super('The contact of this email is being changed by another request at the same moment. Retry the request.');
  }
}

/**
 * Stores a response, its `contactId` projection, its contact write and its `form_response.created`
 * event (the response as GET returns it) in ONE transaction: either the response and the contact
 * change both land, announced, or nothing does. `effects` are committed with them. A moved contact
 * version is a StaleVersionError and a contact created concurrently a SubmissionContactRaceError:
 * both mean "read again".
 */
export async function saveSubmission(workspaceId: string, response: FormResponse, contact?: ContactWrite, effects?: Transaction): Promise<void> {
  const tx = transaction().put(toResponseItem(workspaceId, response), { ...notExists(), onFailed: () => new ConflictError('A response with this id already exists.') });
  if (contact) addContactWrite(tx, workspaceId, contact, () => new SubmissionContactRaceError());
  const contactId = response.contactId;
  if (contactId !== undefined) tx.put(toResponseByContactItem(workspaceId, { ...response, contactId }), notExists());
  tx.include(outboxEvents(workspaceId, [{ type: 'form_response.created', object: fromResponseItem(toResponseItem(workspaceId, response)) }], new Date(response.createdAt)));
  if (effects) tx.include(effects);
  await tx.commit({ onTooLarge: () => new ValidationError({ path: 'answers', message: 'The response is too large to store (about 400 KB). Send shorter answers.' }) });
}

export interface ResponseListFilter {
  direction: SortDirection;
  contactId?: string | undefined;
}

/**
 * One page of a form's responses in submission order (the `byCreatedAt` index). Unfiltered: a Query on
 * the form's response partition. With `contactId`: a Query on that contact's projection partition,
 * then one BatchGet of the page. One Query per cursor page, never the form's other responses.
 */
export async function listResponses(workspaceId: string, formId: string, filter: ResponseListFilter, request: PageRequest): Promise<Page<FormResponse>> {
  const partition = filter.contactId === undefined
    ? responseKeys.partition(workspaceId, formId)
    : responseKeys.byContactPartition(workspaceId, formId, filter.contactId);
  const scope = { owner: workspaceId, list: `responses:${formId}`, shape: { ...filter } };
  const page = await queryPage({ index: 'byCreatedAt', partition, ascending: filter.direction === 'asc' }, request, scope);
  if (filter.contactId === undefined) return { ...page, items: page.items.map(fromResponseItem) };
  const ids = page.items.map(projectedResponseId);
  const byId = new Map((await batchGetItems(ids.map((id) => responseKeys.response(workspaceId, formId, id)))).map((item) => [item.id as string, fromResponseItem(item)]));
  return { ...page, items: ids.flatMap((id) => byId.get(id) ?? []) };
}

/** One response of one of the workspace's forms (eventually consistent: responses never change). */
export async function getResponse(workspaceId: string, formId: string, id: string): Promise<FormResponse | undefined> {
  const item = await getItem(responseKeys.response(workspaceId, formId, id));
  return item ? fromResponseItem(item) : undefined;
}
