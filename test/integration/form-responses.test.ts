import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids.js';
import { startApi, type TestApi, type TestWorkspace } from './support/api.js';

let api: TestApi;
let workspace: TestWorkspace;

beforeAll(async () => {
  api = await startApi();
  workspace = await api.newWorkspace('Form responses');
});
afterAll(async () => api.close());

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown, key = workspace.apiKey) {
  const response = await api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
  return response.body?.data;
}

async function createForm(overrides: Json = {}, key = workspace.apiKey) {
  return call('POST', '/v1/forms', { name: 'Signup', type: 'standalone', status: 'active', ...overrides }, key);
}

async function addElement(formId: string, element: Json, key = workspace.apiKey) {
  return call('POST', `/v1/forms/${formId}/elements`, element, key);
}

/** An active signup form: required email (contact), first name, opt-in, and a follow-up revealed by Yes. */
async function signupForm(key = workspace.apiKey) {
  const form = await createForm({}, key);
  const email = await addElement(form.id, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' }, key);
  const firstName = await addElement(form.id, { type: 'Text', prompt: 'First name', contactField: 'firstName' }, key);
  const optIn = await addElement(form.id, { type: 'Yes/No', prompt: 'Newsletter?', dropdown: true, contactField: 'status' }, key);
  const topics = await addElement(form.id, { type: 'Text', prompt: 'Topics?', required: true }, key);
  await call('POST', `/v1/forms/${form.id}/elements/${optIn.id}/logic-rules`, { revealedElementId: topics.id, condition: { selectionType: 'is', value: true } }, key);
  return { form, email, firstName, optIn, topics };
}

const submit = (formId: string, body: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', `/forms/${formId}/responses`, { body, headers });

describe('POST /forms/{formId}/responses', () => {
  it('stores the response without a key and creates the contact in the form\'s workspace', async () => {
    // Prepare
    const { form, email, firstName, optIn } = await signupForm();
    // Act
    const response = await submit(form.id, { answers: { [email.id]: 'Ada@Example.com', [firstName.id]: 'Ada', [optIn.id]: false } });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data.id).toMatch(/^[a-f0-9]{24}$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const contact = await call('GET', `/v1/contacts/${response.body.data.contactId}`);
    expect(contact).toMatchObject({ email: 'Ada@Example.com', firstName: 'Ada', status: 'unsubscribed' });
  });

  it('links a second submission of the same email to the same contact, changing none of its filled fields nor its status', async () => {
    // Prepare
    const { form, email, firstName, optIn, topics } = await signupForm();
    const first = await submit(form.id, { answers: { [email.id]: 'grace@example.com', [firstName.id]: 'G', [optIn.id]: false } });
    // Act
    const second = await submit(form.id, { answers: { [email.id]: 'GRACE@example.com', [firstName.id]: 'Grace', [optIn.id]: true, [topics.id]: 'COBOL' } });
    // Assess
    expect(second.status).toBe(201);
    expect(second.body.data.contactId).toBe(first.body.data.contactId);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    const contact = await call('GET', `/v1/contacts/${first.body.data.contactId}`);
    expect(contact).toMatchObject({ email: 'grace@example.com', firstName: 'G', status: 'unsubscribed', version: 1 });
  });

  it('changes none of an existing contact\'s fields from an anonymous submission with its email, and keeps what was submitted on the response', async () => {
    // Prepare: a contact the host keeps, with every field and a property value filled
    const tier = await call('POST', '/v1/properties', { type: 'Select One', name: `Tier ${newId()}`, objectType: 'contact', options: [{ value: 'gold', label: 'Gold' }, { value: 'silver', label: 'Silver' }] });
    const { form, email, firstName, optIn } = await signupForm();
    const lastName = await addElement(form.id, { type: 'Text', prompt: 'Last name', contactField: 'lastName' });
    const phone = await addElement(form.id, { type: 'Phone', prompt: 'Phone', contactField: 'phone' });
    const question = await addElement(form.id, { type: 'Select One', prompt: 'Tier', propertyId: tier.id });
    const kept = await call('POST', '/v1/contacts', {
      email: 'victim@example.com', firstName: 'Vera', lastName: 'Victim', phone: '+15550100', status: 'opted-in', properties: { [tier.id]: 'gold' },
    });
    const answers = {
      [email.id]: 'VICTIM@example.com', [firstName.id]: 'Mallory', [lastName.id]: 'Attacker', [phone.id]: '+15559999', [optIn.id]: false, [question.id]: 'silver',
    };
    // Act
    const submitted = await submit(form.id, { answers });
    // Assess
    expect(submitted.status).toBe(201);
    expect(submitted.body.data.contactId).toBe(kept.id);
    expect(await call('GET', `/v1/contacts/${kept.id}`)).toEqual(kept);
    const stored = await call('GET', `/v1/forms/${form.id}/responses/${submitted.body.data.id}`);
    expect(stored).toMatchObject({ contactId: kept.id, answers });
  });

  it('fills only the empty fields of an existing contact from a submission', async () => {
    // Prepare
    const tier = await call('POST', '/v1/properties', { type: 'Select One', name: `Tier ${newId()}`, objectType: 'contact', options: [{ value: 'gold', label: 'Gold' }] });
    const { form, email, firstName, optIn } = await signupForm();
    const lastName = await addElement(form.id, { type: 'Text', prompt: 'Last name', contactField: 'lastName' });
    const question = await addElement(form.id, { type: 'Select One', prompt: 'Tier', propertyId: tier.id });
    const kept = await call('POST', '/v1/contacts', { email: 'sparse@example.com', firstName: 'Sam' });
    // Act
    const submitted = await submit(form.id, { answers: { [email.id]: 'sparse@example.com', [firstName.id]: 'Other', [lastName.id]: 'Sparse', [optIn.id]: false, [question.id]: 'gold' } });
    // Assess
    expect(submitted.status).toBe(201);
    const contact = await call('GET', `/v1/contacts/${kept.id}`);
    expect(contact).toMatchObject({ firstName: 'Sam', lastName: 'Sparse', properties: { [tier.id]: 'gold' }, version: 2 });
    expect(contact.status).toBeUndefined();
  });

  it('creates the contact in the form\'s workspace, not in another one with the same email', async () => {
    // Prepare
    const other = await api.newWorkspace('Other host');
    const { form, email } = await signupForm(other.apiKey);
    await call('POST', '/v1/contacts', { email: 'shared@example.com', firstName: 'Mine' });
    // Act
    const response = await submit(form.id, { answers: { [email.id]: 'shared@example.com' } });
    // Assess
    expect(response.status).toBe(201);
    const inOther = await api.request('GET', `/v1/contacts/${response.body.data.contactId}`, { key: other.apiKey });
    const inMine = await api.request('GET', `/v1/contacts/${response.body.data.contactId}`, { key: workspace.apiKey });
    expect(inOther.status).toBe(200);
    expect(inMine.status).toBe(404);
  });

  it('gives every simultaneous submission of a new email the same single contact', async () => {
    // Prepare
    const { form, email, firstName } = await signupForm();
    // Act
    const responses = await Promise.all(['A', 'B', 'C', 'D'].map((name) => submit(form.id, { answers: { [email.id]: 'burst@example.com', [firstName.id]: name } })));
    // Assess
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(responses.map((response) => response.body.data.contactId)).size).toBe(1);
    const listed = await api.request('GET', '/v1/contacts?email=burst@example.com', { key: workspace.apiKey });
    expect(listed.body.data).toHaveLength(1);
  });

  it('sets contact property values from questions linked to contact properties', async () => {
    // Prepare
    const tier = await call('POST', '/v1/properties', { type: 'Select One', name: `Tier ${newId()}`, objectType: 'contact', options: [{ value: 'gold', label: 'Gold' }, { value: 'silver', label: 'Silver' }] });
    const { form, email } = await signupForm();
    const question = await addElement(form.id, { type: 'Select One', prompt: 'Tier', propertyId: tier.id });
    // Act
    const refused = await submit(form.id, { answers: { [email.id]: 'tier@example.com', [question.id]: 'bronze' } });
    const accepted = await submit(form.id, { answers: { [email.id]: 'tier@example.com', [question.id]: 'gold' } });
    // Assess
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ path: `answers.${question.id}`, message: expect.stringContaining('gold') }]);
    const contact = await call('GET', `/v1/contacts/${accepted.body.data.contactId}`);
    expect(contact.properties).toEqual({ [tier.id]: 'gold' });
  });

  it('stays submittable after a linked property loses options: minChoices is capped at the options left, and logic on a removed option never matches', async () => {
    // Prepare: minChoices 2 of a,b,c, and a follow-up revealed by option 2 (c)
    const topics = await call('POST', '/v1/properties', {
      type: 'Select Multiple', name: `Topics ${newId()}`, objectType: 'contact', options: ['a', 'b', 'c'].map((value) => ({ value, label: value.toUpperCase() })),
    });
    const form = await createForm();
    const email = await addElement(form.id, { type: 'Email', prompt: 'Email', required: true, contactField: 'email' });
    const question = await addElement(form.id, { type: 'Select Multiple', prompt: 'q', propertyId: topics.id, minChoices: 2 });
    const followUp = await addElement(form.id, { type: 'Text', prompt: 'Why c?', required: true });
    await call('POST', `/v1/forms/${form.id}/elements/${question.id}/logic-rules`, { revealedElementId: followUp.id, condition: { optionIndices: [2], operator: 'any_of' } });
    await call('PATCH', `/v1/properties/${topics.id}`, { options: [{ value: 'a', label: 'A' }] });
    // Act
    const one = await submit(form.id, { answers: { [email.id]: 'capped@example.com', [question.id]: ['a'] } });
    const none = await submit(form.id, { answers: { [email.id]: 'capped@example.com' } });
    const removed = await submit(form.id, { answers: { [email.id]: 'capped@example.com', [question.id]: ['a', 'c'] } });
    const shown = await api.request('GET', `/forms/${form.id}`);
    // Assess
    expect(one.status).toBe(201);
    expect(none.status).toBe(422);
    expect(none.body.error.details).toEqual([{ path: `answers.${question.id}`, message: 'is required: choose at least 1' }]);
    expect(removed.status).toBe(422);
    expect(removed.body.error.details).toEqual([{ path: `answers.${question.id}`, message: 'every entry must be one of: a' }]);
    expect(shown.body.data.elements[1]).toMatchObject({ options: ['a'], minChoices: 1 });
    expect(await call('GET', `/v1/forms/${form.id}`)).toMatchObject({ elements: [{}, { minChoices: 2 }, {}] });
  });

  it('is a 422 on its path for a Number answer beyond +/-Number.MAX_SAFE_INTEGER bound for a contact property, storing no response and no contact', async () => {
    // Prepare
    const guests = await call('POST', '/v1/properties', { type: 'Number', name: `Guests ${newId()}`, objectType: 'contact' });
    const { form, email } = await signupForm();
    const question = await addElement(form.id, { type: 'Number', prompt: 'Guests', propertyId: guests.id });
    // Act
    const responses = await Promise.all([9_007_199_254_740_992, 1e20, -1e30].map((value) => submit(form.id, { answers: { [email.id]: 'unsafe@example.com', [question.id]: value } })));
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(422);
      expect(response.body.error.details).toEqual([{ path: `answers.${question.id}`, message: expect.stringMatching(/9007199254740991/) }]);
    }
    expect(await call('GET', `/v1/forms/${form.id}/responses`)).toEqual([]);
    expect(await call('GET', '/v1/contacts?email=unsafe@example.com')).toEqual([]);
  });

  it('is a 422 on its path for an answer a contact field refuses (name > 200, phone > 50, email > 254), storing no response and no contact', async () => {
    // Prepare
    const { form, email, firstName } = await signupForm();
    const lastName = await addElement(form.id, { type: 'Text', prompt: 'Last name', contactField: 'lastName' });
    const phone = await addElement(form.id, { type: 'Phone', prompt: 'Phone', contactField: 'phone' });
    const address = 'long-fields@example.com';
    const tooLongEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    // Act
    const responses = await Promise.all([
      [firstName.id, 'F'.repeat(5000)], [lastName.id, 'L'.repeat(201)], [phone.id, '5'.repeat(51)], [email.id, tooLongEmail],
    ].map(async ([id, value]) => [id, await submit(form.id, { answers: { [email.id]: address, [id as string]: value } })] as const));
    // Assess
    for (const [id, response] of responses) {
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details).toEqual([{ path: `answers.${id}`, message: expect.stringMatching(/contact.*(200|50|254)/) }]);
    }
    expect(await call('GET', `/v1/forms/${form.id}/responses`)).toEqual([]);
    expect(await call('GET', `/v1/contacts?email=${address}`)).toEqual([]);
  });

  it('writes a contact from answers at the contact fields\' limits that its GET, sent back as a PATCH, passes', async () => {
    // Prepare
    const { form, email, firstName } = await signupForm();
    const lastName = await addElement(form.id, { type: 'Text', prompt: 'Last name', contactField: 'lastName' });
    const phone = await addElement(form.id, { type: 'Phone', prompt: 'Phone', contactField: 'phone' });
    // Act: padded answers, which the contact stores trimmed
    const submitted = await submit(form.id, {
      answers: { [email.id]: 'at-limits@example.com', [firstName.id]: ` ${'F'.repeat(200)} `, [lastName.id]: 'L'.repeat(200), [phone.id]: `${'5'.repeat(50)}  ` },
    });
    // Assess
    expect(submitted.status).toBe(201);
    const contact = await call('GET', `/v1/contacts/${submitted.body.data.contactId}`);
    expect(contact).toMatchObject({ firstName: 'F'.repeat(200), lastName: 'L'.repeat(200), phone: '5'.repeat(50) });
    const sentBack = await api.request('PATCH', `/v1/contacts/${contact.id}`, { key: workspace.apiKey, body: contact });
    expect(sentBack.status).toBe(200);
  });

  it('is a 422 on its path for a File answer that is not an http(s) URL or an id, storing only the valid ones', async () => {
    // Prepare
    const form = await createForm();
    const photo = await addElement(form.id, { type: 'File', prompt: 'Photo', accept: ['images'] });
    const order = await createForm({ type: 'order' });
    const ticket = await addElement(order.id, { type: 'File', prompt: 'ID scan', accept: ['documents'], askAllAttendees: true });
    const refusedAnswers = ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>', 'not a url at all', '/uploads/a.png'];
    // Act
    const refused = await Promise.all(refusedAnswers.map((answer) => submit(form.id, { answers: { [photo.id]: answer } })));
    const refusedAttendee = await submit(order.id, { answers: {}, attendees: [{ [ticket.id]: 'javascript:alert(1)' }] });
    const accepted = await Promise.all(['https://files.example/a.png', 'http://files.example/b.png', newId()].map((answer) => submit(form.id, { answers: { [photo.id]: answer } })));
    // Assess
    for (const response of refused) {
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.details).toEqual([{ path: `answers.${photo.id}`, message: expect.stringContaining('https:') }]);
    }
    expect(refusedAttendee.status).toBe(422);
    expect(refusedAttendee.body.error.details).toEqual([{ path: `attendees[0].${ticket.id}`, message: expect.stringContaining('https:') }]);
    expect(accepted.map((response) => response.status)).toEqual([201, 201, 201]);
    const stored = await call('GET', `/v1/forms/${form.id}/responses`);
    expect(stored).toHaveLength(3);
    expect(await call('GET', `/v1/forms/${order.id}/responses`)).toEqual([]);
  });

  it('reaches a duplicated form through its own pointer', async () => {
    // Prepare
    const { form } = await signupForm();
    const copy = await call('POST', `/v1/forms/${form.id}/duplicate`, { status: 'active' });
    // Act
    const response = await submit(copy.id, { answers: { [copy.elements[0].id]: 'copy@example.com' } });
    // Assess
    expect(copy.elements[0].type).toBe('Email');
    expect(response.status).toBe(201);
    expect(response.body.data.contactId).toMatch(/^[a-f0-9]{24}$/);
  });

  it('answers 201 without contactId on a form that identifies no contact', async () => {
    // Prepare
    const form = await createForm();
    const question = await addElement(form.id, { type: 'Number', prompt: 'Guests', integerOnly: true });
    // Act
    const response = await submit(form.id, { answers: { [question.id]: 3 } });
    // Assess
    expect(response.status).toBe(201);
    expect(response.body.data).not.toHaveProperty('contactId');
  });

  it('is a 404 for a draft form, an unknown form and a malformed id, with CORS headers', async () => {
    // Prepare
    const draft = await createForm({ status: 'draft' });
    // Act
    const responses = await Promise.all([submit(draft.id, { answers: {} }), submit(newId(), { answers: {} }), submit('not-an-id', { answers: {} })]);
    // Assess
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('is a 422 naming a missing required answer and an answer to a question hidden by logic', async () => {
    // Prepare
    const { form, email, optIn, topics } = await signupForm();
    // Act
    const missing = await submit(form.id, { answers: { [optIn.id]: true } });
    const hidden = await submit(form.id, { answers: { [email.id]: 'x@example.com', [optIn.id]: false, [topics.id]: 'Rust' } });
    // Assess
    expect(missing.status).toBe(422);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect(missing.body.error.details).toEqual(expect.arrayContaining([
      { path: `answers.${email.id}`, message: 'is required' },
      { path: `answers.${topics.id}`, message: 'is required' },
    ]));
    expect(hidden.status).toBe(422);
    expect(hidden.body.error.details).toEqual([{ path: `answers.${topics.id}`, message: expect.stringContaining('hidden') }]);
  });

  it('is a 422 for an answer keyed "__proto__", in the answers and in an attendee, on its path', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const seat = await addElement(form.id, { type: 'Text', prompt: 'Seat', askAllAttendees: true });
    const answers = '{"__proto__": {"x": 1}}';
    // Act
    const buyer = await api.request('POST', `/forms/${form.id}/responses`, {
      raw: `{"answers": ${answers}, "attendees": [{"${seat.id}": "A1"}]}`, headers: { 'content-type': 'application/json' },
    });
    const attendee = await api.request('POST', `/forms/${form.id}/responses`, {
      raw: `{"answers": {}, "attendees": [${answers}]}`, headers: { 'content-type': 'application/json' },
    });
    // Assess
    expect(buyer.status).toBe(422);
    expect(buyer.body.error.code).toBe('validation_failed');
    // Refused at the edge (shared/http/input-hygiene.ts), before any element is looked up.
    expect(buyer.body.error.details).toEqual([{ path: 'answers.__proto__', message: 'the key "__proto__" is not allowed' }]);
    expect(attendee.status).toBe(422);
    expect(attendee.body.error.details).toEqual([{ path: expect.stringMatching(/^attendees.*__proto__$/), message: 'the key "__proto__" is not allowed' }]);
  });

  it('takes attendee answers per attendee on order forms', async () => {
    // Prepare
    const form = await createForm({ type: 'order' });
    const diet = await addElement(form.id, { type: 'Select One or "Other"', prompt: 'Diet', options: ['Vegan', 'None'], otherPrompt: 'Other', required: true, askAllAttendees: true });
    // Act
    const without = await submit(form.id, { answers: {} });
    const wrong = await submit(form.id, { answers: {}, attendees: [{ [diet.id]: 'Vegan' }, {}] });
    const ok = await submit(form.id, { answers: {}, attendees: [{ [diet.id]: 'Vegan' }, { [diet.id]: 'Halal' }] });
    // Assess
    expect(without.body.error.details).toEqual([{ path: 'attendees', message: expect.any(String) }]);
    expect(wrong.body.error.details).toEqual([{ path: `attendees[1].${diet.id}`, message: 'is required' }]);
    expect(ok.status).toBe(201);
  });

  it('replays the first response for the same Idempotency-Key without storing twice', async () => {
    // Prepare
    const { form, email } = await signupForm();
    const body = { answers: { [email.id]: 'replay@example.com' } };
    const key = `submit-${newId()}`;
    // Act
    const first = await submit(form.id, body, { 'Idempotency-Key': key });
    const replay = await submit(form.id, body, { 'Idempotency-Key': key });
    // Assess
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    // A browser on the host's site (the form widget) may read that it was a replay.
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('access-control-expose-headers')?.split(', ')).toContain('Idempotent-Replayed');
  });

  it('scopes an Idempotency-Key to the form, so respondents of another workspace\'s form are not refused or replayed', async () => {
    // Prepare
    const other = await api.newWorkspace('Form responses elsewhere');
    const mine = await createForm();
    const theirs = await createForm({}, other.apiKey);
    const key = `shared-${newId()}`;
    // Act
    const first = await submit(mine.id, { answers: {} }, { 'Idempotency-Key': key });
    const second = await submit(theirs.id, { answers: {} }, { 'Idempotency-Key': key });
    // Assess
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
  });

  it('answers the CORS preflight', async () => {
    // Act
    const response = await api.request('OPTIONS', `/forms/${newId()}/responses`, {
      headers: { Origin: 'https://site.example', 'Access-Control-Request-Method': 'POST' },
    });
    // Assess
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });
});
