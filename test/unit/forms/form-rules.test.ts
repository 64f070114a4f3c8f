import { describe, expect, it } from 'vitest';
import { formRuleErrors } from '../../../shared/forms/form-rules.js';
import type { FormElement } from '../../../shared/forms/form-element-model.js';
import type { Form } from '../../../shared/forms/form-model.js';
import { element, email, form, property, propertyMap, selectOne, text, yesNo } from './form-factories.js';

const paths = (f: Form, properties = propertyMap()) => formRuleErrors(f, properties).map((detail) => detail.path);

describe('linkage rules', () => {
  const contactText = property({ type: 'Text', objectType: 'contact' });
  const orderText = property({ type: 'Text', objectType: 'order' });
  const ticketText = property({ type: 'Text', objectType: 'ticket' });
  const contactNumber = property({ type: 'Number', objectType: 'contact' });
  const select = property({ type: 'Select One', objectType: 'contact', options: [{ value: 'a', label: 'A' }] });
  const archived = property({ type: 'Text', objectType: 'contact', status: 'archived' });
  const properties = propertyMap(contactText, orderText, ticketText, contactNumber, select, archived);

  it.each<[string, Form, string | undefined]>([
    ['rule 1: property and contact field together', form([email(), text({ propertyId: contactText.id, contactField: 'firstName' })]), 'elements[1].contactField'],
    ['rule 2: select with neither propertyId nor options', form([selectOne({ options: undefined })]), 'elements[0].options'],
    ['rule 2: select with both propertyId and options', form([email(), selectOne({ propertyId: select.id })]), 'elements[1].options'],
    ['rule 2: select linked to a property only', form([email(), selectOne({ options: undefined, propertyId: select.id })]), undefined],
    ['type mismatch', form([email(), text({ propertyId: contactNumber.id })]), 'elements[1].propertyId'],
    ['unknown property', form([text({ propertyId: '0123456789abcdef01234567' })]), 'elements[0].propertyId'],
    ['rule 3: standalone with an order property', form([text({ propertyId: orderText.id })]), 'elements[0].propertyId'],
    ['rule 3: standalone with a contact property', form([email(), text({ propertyId: contactText.id })]), undefined],
    ['rule 4: buyer question with an order property', form([text({ propertyId: orderText.id })], { type: 'order' }), undefined],
    ['rule 4: buyer question with a ticket property', form([text({ propertyId: ticketText.id })], { type: 'order' }), 'elements[0].propertyId'],
    ['rule 4: attendee question with a ticket property', form([text({ propertyId: ticketText.id, askAllAttendees: true })], { type: 'order' }), undefined],
    ['rule 4: attendee question with an order property', form([text({ propertyId: orderText.id, askAllAttendees: true })], { type: 'order' }), 'elements[0].propertyId'],
    ['rule 4: contact property in the attendee section', form([email(), text({ propertyId: contactText.id, askAllAttendees: true })], { type: 'order' }), undefined],
    ['archived property newly linked', form([email(), text({ propertyId: archived.id })]), 'elements[1].propertyId'],
  ])('%s', (_name, candidate, path) => {
    // Act
    const found = paths(candidate, properties);
    // Assess
    if (path === undefined) expect(found).toEqual([]);
    else expect(found).toContain(path);
  });

  it('keeps an archived property that the same question already linked', () => {
    const candidate = form([email(), text({ propertyId: archived.id })]);
    expect(formRuleErrors(candidate, properties, { previous: candidate.elements })).toEqual([]);
  });

  it('refuses an archived property newly chosen by a question, even when another question of the form links it', () => {
    // Prepare: the second question linked the property before it was archived; the third and a new fourth choose it now
    const linked = text({ propertyId: archived.id });
    const other = text();
    const before = [email(), linked, other];
    const candidate = form([...before.slice(0, 2), { ...other, propertyId: archived.id } as typeof other, text({ propertyId: archived.id })]);
    // Act
    const found = formRuleErrors(candidate, properties, { previous: before });
    // Assess
    expect(found).toEqual([
      { path: 'elements[2].propertyId', message: 'archived properties cannot be linked to questions' },
      { path: 'elements[3].propertyId', message: 'archived properties cannot be linked to questions' },
    ]);
  });
});

describe('rule 5: the contact email question', () => {
  it.each<[string, Form, string | undefined]>([
    ['contact field without any email question', form([text({ contactField: 'firstName' })]), 'elements[0]'],
    ['contact field with an optional email question', form([text({ contactField: 'firstName' }), email({ required: false })]), 'elements[1].required'],
    ['contact field with a required email question', form([text({ contactField: 'lastName' }), email()]), undefined],
    ['Yes/No status without email', form([yesNo({ contactField: 'status' })]), 'elements[0]'],
    ['no contact data at all', form([text(), email({ required: false })]), undefined],
    ['contact field with the email question revealed by logic', form([text({ contactField: 'firstName' }), yesNo({ logicGroups: [{ revealedElementIndex: 2, selectionType: 'is', value: true }] }), email()]), 'elements[1].logicGroups[0].revealedElementIndex'],
    ['contact field with the email question limited to no cart item', form([text({ contactField: 'firstName' }), email({ forEventItems: [] })], { type: 'order' }), 'elements[1].forEventItems'],
    ['contact field with the email question limited to a cart item', form([text({ contactField: 'firstName' }), email({ forEventItems: [{ type: 'eventItem', eventId: 'e', itemId: 'i' }] })], { type: 'order' }), 'elements[1].forEventItems'],
    ['no contact data and a hidden email question', form([yesNo({ logicGroups: [{ revealedElementIndex: 1, selectionType: 'is', value: true }] }), email({ forEventItems: [] })], { type: 'order' }), undefined],
    ['contact field and logic revealing another question', form([text({ contactField: 'firstName' }), yesNo({ logicGroups: [{ revealedElementIndex: 0, selectionType: 'is', value: true }] }), email()]), undefined],
  ])('%s', (_name, candidate, path) => {
    const found = paths(candidate);
    if (path === undefined) expect(found).toEqual([]);
    else expect(found).toContain(path);
  });
});

describe('contact fields stay in the buyer section of order forms', () => {
  const contactMessage = expect.stringContaining('buyer section');
  it.each<[string, Form, string]>([
    ['the contact Email question asked of every attendee', form([email({ askAllAttendees: true })], { type: 'order' }), 'elements[0].askAllAttendees'],
    ['an attendee first name with a buyer Email question', form([email(), text({ contactField: 'firstName', askAllAttendees: true })], { type: 'order' }), 'elements[1].askAllAttendees'],
    ['an attendee opt-in status', form([email(), yesNo({ contactField: 'status', askAllAttendees: true })], { type: 'order' }), 'elements[1].askAllAttendees'],
    ['an attendee phone', form([email(), element({ type: 'Phone', contactField: 'phone', askAllAttendees: true })], { type: 'order' }), 'elements[1].askAllAttendees'],
  ])('rejects %s', (_name, candidate, path) => {
    expect(formRuleErrors(candidate, propertyMap())).toContainEqual({ path, message: contactMessage });
  });

  it('names contactField when the question was already in the attendee section, askAllAttendees when it was not', () => {
    // Prepare
    const attendee = text({ askAllAttendees: true });
    const buyer = text({ askAllAttendees: false });
    const before = form([email(), attendee, buyer], { type: 'order' });
    const after = { ...before, elements: [before.elements[0], { ...attendee, contactField: 'lastName' }, { ...buyer, contactField: 'firstName', askAllAttendees: true }] as Form['elements'] };
    // Act
    const found = formRuleErrors(after, propertyMap(), { previous: before.elements }).filter((detail) => detail.path.startsWith('elements'));
    // Assess
    expect(found).toEqual([
      { path: 'elements[1].contactField', message: contactMessage },
      { path: 'elements[2].askAllAttendees', message: contactMessage },
    ]);
  });

  it('accepts contact questions in the buyer section, attendee questions without a contact field, and standalone forms', () => {
    const order = form([email(), text({ contactField: 'firstName' }), text({ askAllAttendees: true })], { type: 'order' });
    const standalone = form([email(), text({ contactField: 'firstName' })]);
    expect(paths(order)).toEqual([]);
    expect(paths(standalone)).toEqual([]);
  });
});

describe('field rules', () => {
  it.each<[string, Form, string]>([
    ['duplicate options', form([selectOne({ options: ['A', 'A'] })]), 'elements[0].options'],
    ['maxChoices below minChoices', form([element({ type: 'Select Multiple', options: ['a', 'b', 'c'], minChoices: 2, maxChoices: 1 })]), 'elements[0].maxChoices'],
    ['minChoices above the option count', form([element({ type: 'Select Multiple', options: ['a'], minChoices: 2 })]), 'elements[0].minChoices'],
    ['maxValue below minValue', form([element({ type: 'Number', minValue: 5, maxValue: 1 })]), 'elements[0].maxValue'],
    ['max date before min date', form([element({ type: 'Date', min: '2026-02-01', max: '2026-01-01' })]), 'elements[0].max'],
    ['a file kind listed twice', form([element({ type: 'File', accept: ['images', 'images'] })]), 'elements[0].accept'],
    ['integerOnly with bounds that admit no whole number', form([element({ type: 'Number', minValue: 1.2, maxValue: 1.8, integerOnly: true })]), 'elements[0].integerOnly'],
  ])('rejects %s', (_name, candidate, path) => {
    expect(paths(candidate)).toContain(path);
  });

  it('accepts integerOnly whenever a whole number lies within the bounds (at a bound, or one bound only), and distinct file kinds', () => {
    const candidate = form([
      element({ type: 'Number', minValue: 1.2, maxValue: 2, integerOnly: true }),
      element({ type: 'Number', minValue: 0.5, integerOnly: true }),
      element({ type: 'Number', maxValue: -0.5, integerOnly: true }),
      element({ type: 'Number', minValue: 1.2, maxValue: 1.8 }),
      element({ type: 'File', accept: ['images', 'documents'] }),
    ]);
    expect(paths(candidate)).toEqual([]);
  });

  it('accepts a placeholder on a radio Select One: it has no effect there, so it is kept, never refused (API.md)', () => {
    const candidate = form([selectOne({ placeholder: 'Pick' }), selectOne({ dropdown: false, placeholder: 'Pick' }), element({ type: 'Select One or "Other"', options: ['A'], otherPrompt: 'Other', placeholder: 'Pick' })]);
    expect(paths(candidate)).toEqual([]);
  });

  it('accepts a dropdown Select One with a placeholder and forEventItems on an order form', () => {
    const candidate = form([selectOne({ dropdown: true, placeholder: 'Pick', forEventItems: [{ type: 'eventItem', eventId: 'e', itemId: 'i' }] })], { type: 'order' });
    expect(paths(candidate)).toEqual([]);
  });
});

describe('layout rules', () => {
  const two = [text(), text()];
  it.each<[string, Partial<Form>, string]>([
    ['fractions not summing to 1', { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.6 }] }] }, 'rows[0].columns'],
    ['an element in no column', { rows: [{ columns: [{ elementIndex: 0, widthFraction: 1 }] }] }, 'elements[1]'],
    ['an element in two columns', { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 0, widthFraction: 0.5 }] }, { columns: [{ elementIndex: 1, widthFraction: 1 }] }] }, 'rows[0].columns[1].elementIndex'],
    ['a column pointing past the elements', { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.5 }] }, { columns: [{ elementIndex: 2, widthFraction: 1 }] }] }, 'rows[1].columns[0].elementIndex'],
    ['an empty row', { rows: [{ columns: [{ elementIndex: 0, widthFraction: 0.5 }, { elementIndex: 1, widthFraction: 0.5 }] }, { columns: [] }] }, 'rows[1].columns'],
    ['attendeeRowsStart past the rows', { attendeeRowsStart: 3 }, 'attendeeRowsStart'],
  ])('rejects %s', (_name, overrides, path) => {
    expect(paths(form(two, overrides))).toContain(path);
  });

  it('accepts thirds that sum to 1 only within floating-point tolerance', () => {
    const three = [text(), text(), text()];
    const rows = [{ columns: [0, 1, 2].map((elementIndex) => ({ elementIndex, widthFraction: 1 / 3 })) }];
    expect(paths(form(three, { rows }))).toEqual([]);
  });

  it('rejects a buyer element at or after attendeeRowsStart and an attendee element before it', () => {
    const candidate = form([text(), text({ askAllAttendees: true })], { type: 'order', attendeeRowsStart: 0 });
    const swapped = { ...candidate, rows: [...candidate.rows].reverse(), attendeeRowsStart: 1 };
    expect(paths(candidate)).toContain('rows[0].columns[0].elementIndex');
    expect(paths(swapped)).toEqual(['rows[0].columns[0].elementIndex', 'rows[1].columns[0].elementIndex']);
  });
});

describe('logic rules', () => {
  const logic = (groups: unknown[]) => ({ logicGroups: groups });
  it.each<[string, Form, string]>([
    ['a revealed index out of range', form([selectOne(logic([{ revealedElementIndex: 5, optionIndices: [0], operator: 'any_of' }]))]), 'elements[0].logicGroups[0].revealedElementIndex'],
    ['a self reveal', form([selectOne(logic([{ revealedElementIndex: 0, optionIndices: [0], operator: 'any_of' }]))]), 'elements[0].logicGroups[0].revealedElementIndex'],
    ['an option index out of range', form([selectOne(logic([{ revealedElementIndex: 1, optionIndices: [3], operator: 'any_of' }])), text()]), 'elements[0].logicGroups[0].optionIndices[0]'],
    ['-1 on a type without Other', form([selectOne(logic([{ revealedElementIndex: 1, optionIndices: [-1], operator: 'any_of' }])), text()]), 'elements[0].logicGroups[0].optionIndices[0]'],
    ['duplicate option indices', form([selectOne(logic([{ revealedElementIndex: 1, optionIndices: [1, 1], operator: 'all_of' }])), text()]), 'elements[0].logicGroups[0].optionIndices'],
    ['a Yes/No group on a selection source', form([selectOne(logic([{ revealedElementIndex: 1, selectionType: 'is', value: true }])), text()]), 'elements[0].logicGroups[0]'],
    ['an attendee element revealing a buyer element', form([text(), yesNo({ askAllAttendees: true, ...logic([{ revealedElementIndex: 0, selectionType: 'is', value: true }]) })], { type: 'order' }), 'elements[1].logicGroups[0].revealedElementIndex'],
  ])('rejects %s', (_name, candidate, path) => {
    expect(paths(candidate)).toContain(path);
  });

  it('accepts -1 on an Other type, a buyer element revealing an attendee element, and property option indices', () => {
    const sizes = property({ type: 'Select One', objectType: 'ticket', options: [{ value: 's', label: 'S' }, { value: 'm', label: 'M' }] });
    const candidate = form([
      element({ type: 'Select One or "Other"', options: ['A'], otherPrompt: 'Other', ...logic([{ revealedElementIndex: 1, optionIndices: [-1, 0], operator: 'any_of' }]) }),
      selectOne({ options: undefined, propertyId: sizes.id, askAllAttendees: true, ...logic([{ revealedElementIndex: 2, optionIndices: [1], operator: 'none_of' }]) }),
      text({ askAllAttendees: true }),
    ], { type: 'order' });
    expect(paths(candidate, propertyMap(sizes))).toEqual([]);
  });

  it('checks property option indices against the property options', () => {
    const sizes = property({ type: 'Select One', options: [{ value: 's', label: 'S' }] });
    const candidate = form([email(), selectOne({ options: undefined, propertyId: sizes.id, ...logic([{ revealedElementIndex: 0, optionIndices: [1], operator: 'any_of' }]) })]);
    expect(paths(candidate, propertyMap(sizes))).toContain('elements[1].logicGroups[0].optionIndices[0]');
  });
});

describe('elements logic would never show', () => {
  const reveals = (index: number) => ({ logicGroups: [{ revealedElementIndex: index, selectionType: 'is', value: true }] });

  it('refuses a reveal cycle with no way in, on each group of the cycle', () => {
    // A reveals B, B reveals A: each is hidden until the other is shown
    const candidate = form([yesNo(reveals(1)), yesNo(reveals(0)), text()]);
    expect(formRuleErrors(candidate, propertyMap())).toEqual([
      { path: 'elements[0].logicGroups[0].revealedElementIndex', message: expect.stringMatching(/^elements\[1\] would never be shown/) },
      { path: 'elements[1].logicGroups[0].revealedElementIndex', message: expect.stringMatching(/^elements\[0\] would never be shown/) },
    ]);
  });

  it('accepts a cycle that an element outside it reveals (a way in), and chains from shown elements', () => {
    // C reveals A; A reveals B; B reveals A: once C is answered, A and then B can show
    const withWayIn = form([yesNo(reveals(1)), yesNo(reveals(0)), yesNo(reveals(0))]);
    const chain = form([yesNo(reveals(1)), yesNo(reveals(2)), text()]);
    expect(paths(withWayIn)).toEqual([]);
    expect(paths(chain)).toEqual([]);
  });

  it('names only the groups a change adds: a stored cycle stays editable, unless the form is new', () => {
    // Prepare: a form stored with a cycle, then edited elsewhere
    const stored = form([yesNo(reveals(1)), yesNo(reveals(0)), text()]);
    const edited = { ...stored, name: 'Renamed' };
    // Act
    const onEdit = formRuleErrors(edited, propertyMap(), { previous: stored.elements });
    const onCreate = formRuleErrors(edited, propertyMap(), { previous: stored.elements, newForm: true });
    const beforeClosing = form([yesNo(reveals(1)), yesNo(), text()]);
    const closed = { ...beforeClosing, elements: [beforeClosing.elements[0]!, { ...beforeClosing.elements[1]!, ...reveals(0) } as FormElement, beforeClosing.elements[2]!] };
    const closing = formRuleErrors(closed, propertyMap(), { previous: beforeClosing.elements });
    // Assess
    expect(onEdit).toEqual([]);
    expect(onCreate.map((detail) => detail.path)).toEqual(['elements[0].logicGroups[0].revealedElementIndex', 'elements[1].logicGroups[0].revealedElementIndex']);
    expect(closing.map((detail) => detail.path)).toEqual(['elements[1].logicGroups[0].revealedElementIndex']);
  });

  it('lets the element that led into a cycle be deleted', () => {
    // C reveals A, A reveals B, B reveals A; then C goes
    const before = form([yesNo(reveals(1)), yesNo(reveals(0)), yesNo(reveals(0))]);
    const after = { ...before, elements: before.elements.slice(0, 2), rows: before.rows.slice(0, 2) };
    expect(formRuleErrors(after, propertyMap(), { previous: before.elements })).toEqual([]);
  });
});
