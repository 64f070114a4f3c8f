import type { Contact } from '../contacts/contact-model.js';
import { buildContact, fillEmptyContactFields } from '../contacts/contact-rules.js';
import { findContactByEmail, type ContactWrite } from '../contacts/contacts-repository.js';
import type { Page, PageRequest } from '../db/query.js';
import { readModifyWrite } from '../db/read-modify-write.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { formBelongsTo, readActiveForm } from '../forms/forms-service.js';
import { visibleElementIds } from '../forms/logic-evaluator.js';
import { newId } from '../ids.js';
import { contactChangesOf, type ContactChanges } from './response-contact.js';
import type { FormResponse, Submission, SubmissionResult } from './response-model.js';
import { submissionProblems } from './response-rules.js';
import { SubmissionContactRaceError, getResponse, listResponses, saveSubmission, type ResponseListFilter } from './responses-repository.js';

/**
 * The contact of these changes and its write: create when the email is new (with everything
 * submitted), else only fill the existing contact's empty fields, never its status (no write when
 * nothing is empty; the email keeps the contact's own spelling).
 */
function contactWriteFor(changes: ContactChanges, current: Contact | undefined, now: Date): { contactId: string; write?: ContactWrite } {
  if (!current) {
    const contact = buildContact({ email: changes.email, ...changes.fields, properties: changes.properties }, now);
    return { contactId: contact.id, write: { kind: 'create', contact } };
  }
  const next = fillEmptyContactFields(current, changes, now);
  return { contactId: current.id, ...(next ? { write: { kind: 'update', current, next } as const } : {}) };
}

/**
 * Submits a response to a public form. The workspace comes from the form's pointer, never from the
 * request; an unknown form and a form that is not `active` are both 404 (a draft is "not reachable
 * at its URL", spec). The answers are validated against every element rule with visibility from the
 * logic evaluator; then the response and the contact upsert land in one transaction, a
 * read-modify-write of the contact: when a concurrent submission or contact update wins the race,
 * the contact is read again and the change merged into it.
 */
export async function submitResponse(formId: string, submission: Submission, now: () => Date = () => new Date()): Promise<SubmissionResult> {
  const { workspaceId, form, properties } = await readActiveForm(formId);
  const problems = submissionProblems(form, submission);
  if (problems.length > 0) throw new ValidationError(problems, 'The response breaks the rules of the form.');
  const changes = contactChangesOf(form, submission.answers, visibleElementIds(form, { answers: submission.answers }), properties);
  const submittedAt = now();
  const id = newId(submittedAt);
  return readModifyWrite({
    resource: 'contact',
    // Strong reads: a retry after a lost race must see the winner's write.
    read: async () => {
      const current = changes ? await findContactByEmail(workspaceId, changes.email, { consistent: true }) : undefined;
      return { version: current?.version ?? 0, current };
    },
    write: async ({ current }) => {
      const contact = changes ? contactWriteFor(changes, current, now()) : undefined;
      const contactId = contact?.contactId;
      const response: FormResponse = {
        id,
        formId,
        answers: { ...submission.answers },
        ...(submission.attendees ? { attendees: submission.attendees.map((attendee) => ({ ...attendee })) } : {}),
        ...(contactId ? { contactId } : {}),
        createdAt: submittedAt.toISOString(),
      };
      await saveSubmission(workspaceId, response, contact?.write);
      return { id, ...(contactId ? { contactId } : {}) };
    },
    retryOn: (error) => error instanceof SubmissionContactRaceError,
  });
}

/**
 * One page of a form's responses for its host: 404 when the form is not the workspace's (its pointer
 * names another workspace, or there is none), checked alongside the page query.
 */
export async function listFormResponses(workspaceId: string, formId: string, filter: ResponseListFilter, request: PageRequest): Promise<Page<FormResponse>> {
  const [owned, page] = await Promise.all([formBelongsTo(workspaceId, formId), listResponses(workspaceId, formId, filter, request)]);
  if (!owned) throw new NotFoundError('Form');
  return page;
}

/** One response of one of the workspace's forms; 404 when absent or another workspace's. */
export async function readFormResponse(workspaceId: string, formId: string, responseId: string): Promise<FormResponse> {
  const response = await getResponse(workspaceId, formId, responseId);
  if (!response) throw new NotFoundError('Response');
  return response;
}
