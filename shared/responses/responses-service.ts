import { applyContactPatch, buildContact } from '../contacts/contact-rules.js';
import { retrying } from '../db/retry.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { linkedPropertyIds } from '../forms/form-rules.js';
import { getForm, getFormWorkspaceId } from '../forms/forms-repository.js';
import { withPropertyData } from '../forms/forms-service.js';
import { visibleElementIds } from '../forms/logic-evaluator.js';
import { newId } from '../ids.js';
import { getPropertiesByIds } from '../properties/properties-repository.js';
import { contactChangesOf, type ContactChanges } from './response-contact.js';
import type { FormResponse } from './response-entity.js';
import { submissionProblems, type Submission } from './response-rules.js';
import { SubmissionContactRaceError, findContactForSubmission, saveSubmission, type ContactWrite } from './responses-repository.js';

/** Enough for a burst of simultaneous submissions with the same email to all land. */
const MAX_ATTEMPTS = 30;

export interface SubmissionResult {
  id: string;
  contactId?: string;
}

/**
 * The contact of these changes and its write: create when the email is new, else merge into the
 * contact read (no write when nothing changes; the email keeps the contact's own spelling).
 */
async function contactWriteFor(workspaceId: string, changes: ContactChanges, now: Date): Promise<{ contactId: string; write?: ContactWrite }> {
  const current = await findContactForSubmission(workspaceId, changes.email);
  if (!current) {
    const contact = buildContact({ email: changes.email, ...changes.fields, properties: changes.properties }, now);
    return { contactId: contact.id, write: { kind: 'create', contact } };
  }
  const next = applyContactPatch(current, { ...changes.fields, properties: changes.properties }, now);
  return { contactId: current.id, ...(next ? { write: { kind: 'update', current, next } as const } : {}) };
}

/**
 * Submits a response to a public form. The workspace comes from the form's pointer, never from the
 * request; an unknown form and a form that is not `active` are both 404 (a draft is "not reachable
 * at its URL", spec). The answers are validated against every element rule with visibility from the
 * logic evaluator; then the response and the contact upsert land in one transaction, retried on a
 * fresh read when a concurrent submission or contact update wins the race.
 */
export async function submitResponse(formId: string, submission: Submission, now: () => Date = () => new Date()): Promise<SubmissionResult> {
  const workspaceId = await getFormWorkspaceId(formId);
  const stored = workspaceId === undefined ? undefined : await getForm(workspaceId, formId);
  if (workspaceId === undefined || !stored || stored.status !== 'active') throw new NotFoundError('Form');
  const ids = linkedPropertyIds(stored);
  const properties = ids.length > 0 ? await getPropertiesByIds(workspaceId, ids) : new Map();
  const form = withPropertyData(stored, properties);
  const problems = submissionProblems(form, submission);
  if (problems.length > 0) throw new ValidationError(problems, 'The response breaks the rules of the form.');
  const changes = contactChangesOf(form, submission.answers, visibleElementIds(form, { answers: submission.answers }), properties);
  const submittedAt = now();
  const id = newId(submittedAt);
  return retrying(async () => {
    const contact = changes ? await contactWriteFor(workspaceId, changes, now()) : undefined;
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
  }, (error) => error instanceof SubmissionContactRaceError, MAX_ATTEMPTS);
}
