import { describe, expect, it } from 'vitest';
import {
  addElement, addLogicRule, deleteElement, duplicateForm, editSettings, moveElement, patchElement, removeLogicRule, toggleOther,
} from '../../../shared/forms/form-operations.js';
import { formRuleErrors } from '../../../shared/forms/form-rules.js';
import type { FormElement } from '../../../shared/forms/form-element-model.js';
import type { EditFormBody, LogicRuleBody } from '../../../shared/forms/form-model.js';
import { ConflictError } from '../../../shared/errors.js';
import { element, form, selectOne, text, yesNo } from './form-factories.js';

const group = (revealedElementIndex: number, optionIndices = [0]) => ({ revealedElementIndex, optionIndices, operator: 'any_of' });
const logicOf = (e: FormElement | undefined) => (e as { logicGroups?: unknown } | undefined)?.logicGroups;

describe('addElement', () => {
  it('appends a full-width row at the end of a standalone form', () => {
    const { form: next, index } = addElement(form([text()]), { type: 'Text', prompt: 'New' });
    expect(index).toBe(1);
    expect(next.rows.at(-1)).toEqual({ columns: [{ elementIndex: 1, widthFraction: 1 }] });
    expect(next.elements[1]?.id).toMatch(/^[a-f0-9]{24}$/);
  });

  it('inserts at attendeeRowsStart on order forms and shifts it by one', () => {
    const order = form([text(), text({ askAllAttendees: true })], { type: 'order' });
    const { form: next } = addElement(order, { type: 'Text', prompt: 'Buyer 2' });
    expect(next.attendeeRowsStart).toBe(2);
    expect(next.rows.map((row) => row.columns[0]?.elementIndex)).toEqual([0, 2, 1]);
    expect(next.elements[2]).toMatchObject({ askAllAttendees: false });
    expect(formRuleErrors(next, new Map())).toEqual([]);
  });

  it('drops the order-form fields on a standalone form, where they have no effect (an order form\'s element copied as it was read)', () => {
    const copied = { type: 'Text', prompt: 'Name', askAllAttendees: false, forEventItems: [{ type: 'eventItem', eventId: 'e', itemId: 'i' }] } as FormElement;
    const { form: next } = addElement(form([text()]), copied);
    expect(next.elements[1]).toEqual({ id: next.elements[1]?.id, type: 'Text', prompt: 'Name' });
    expect(formRuleErrors(next, new Map())).toEqual([]);
    const patched = patchElement(next, 1, { askAllAttendees: true, forEventItems: [] });
    expect(patched.elements[1]).toEqual(next.elements[1]);
  });

  it('keeps them on an order form', () => {
    const { form: next } = addElement(form([], { type: 'order' }), { type: 'Text', prompt: 'Name', forEventItems: [] } as FormElement);
    expect(next.elements[0]).toMatchObject({ askAllAttendees: false, forEventItems: [] });
  });

  it('ignores a client-supplied id and propertyData', () => {
    const { form: next } = addElement(form([]), { type: 'Text', prompt: 'x', id: 'aaaaaaaaaaaaaaaaaaaaaaaa', propertyData: { type: 'Text', objectType: 'contact', status: 'active' } });
    expect(next.elements[0]?.id).not.toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(next.elements[0]).not.toHaveProperty('propertyData');
  });
});

describe('deleteElement', () => {
  it('removes the column, widens the rest of the row, drops groups revealing it and renumbers past it', () => {
    // Prepare: rows [0] [1 | 2] [3]; 0 reveals 2 and 3
    const elements = [selectOne({ logicGroups: [group(2), group(3, [1])] }), text(), text(), text()];
    const base = form(elements, {
      rows: [
        { columns: [{ elementIndex: 0, widthFraction: 1 }] },
        { columns: [{ elementIndex: 1, widthFraction: 0.25 }, { elementIndex: 2, widthFraction: 0.75 }] },
        { columns: [{ elementIndex: 3, widthFraction: 1 }] },
      ],
    });
    // Act
    const next = deleteElement(base, 2);
    // Assess
    expect(next.elements.map((e) => e.id)).toEqual([elements[0]?.id, elements[1]?.id, elements[3]?.id]);
    expect(next.rows).toEqual([
      { columns: [{ elementIndex: 0, widthFraction: 1 }] },
      { columns: [{ elementIndex: 1, widthFraction: 1 }] },
      { columns: [{ elementIndex: 2, widthFraction: 1 }] },
    ]);
    expect(logicOf(next.elements[0])).toEqual([group(2, [1])]);
  });

  it('removes logicGroups entirely when its only group revealed the deleted element', () => {
    const next = deleteElement(form([selectOne({ logicGroups: [group(1)] }), text()]), 1);
    expect(next.elements[0]).not.toHaveProperty('logicGroups');
  });

  it('keeps fractions summing to 1 in a row of three', () => {
    const base = form([text(), text(), text()], { rows: [{ columns: [0, 1, 2].map((elementIndex) => ({ elementIndex, widthFraction: 1 / 3 })) }] });
    const next = deleteElement(base, 1);
    expect(next.rows[0]?.columns.reduce((sum, column) => sum + column.widthFraction, 0)).toBeCloseTo(1, 12);
    expect(next.rows[0]?.columns.map((column) => column.elementIndex)).toEqual([0, 1]);
  });

  it('moves attendeeRowsStart up when a buyer row disappears, not when an attendee row does', () => {
    const order = form([text(), text(), text({ askAllAttendees: true }), text({ askAllAttendees: true })], { type: 'order' });
    expect(deleteElement(order, 0).attendeeRowsStart).toBe(1);
    expect(deleteElement(order, 3).attendeeRowsStart).toBe(2);
  });
});

describe('patchElement', () => {
  it('overwrites only the provided fields and removes null ones', () => {
    const base = form([text({ placeholder: 'p', required: true })]);
    const next = patchElement(base, 0, { prompt: 'New', placeholder: null });
    expect(next.elements[0]).toEqual({ id: base.elements[0]?.id, type: 'Text', prompt: 'New', required: true });
  });

  it('refuses a different type and fields the type does not have', () => {
    const base = form([text()]);
    expect(() => patchElement(base, 0, { type: 'Email' })).toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'type' })] }));
    expect(() => patchElement(base, 0, { options: ['a'] })).toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'options' })] }));
  });
});

describe('toggleOther', () => {
  it.each([
    ['Select One', true, 'Select One or "Other"'],
    ['Select One or "Other"', false, 'Select One'],
    ['Select Multiple', true, 'Select Multiple with "Other"'],
    ['Select Multiple with "Other"', false, 'Select Multiple'],
  ])('turns %s with enabled=%s into %s', (type, enabled, expected) => {
    const base = form([element({ type, options: ['a'], minChoices: type.startsWith('Select Multiple') ? 0 : undefined, otherPrompt: type.includes('Other') ? 'Other' : undefined })]);
    const next = toggleOther(base, 0, enabled ? { enabled: true, otherPrompt: 'Something else' } : { enabled: false });
    expect(next.elements[0]?.type).toBe(expected);
    if (enabled) expect(next.elements[0]).toMatchObject({ otherPrompt: 'Something else' });
    else expect(next.elements[0]).not.toHaveProperty('otherPrompt');
  });

  it('drops -1 from its groups when disabled, and groups left without options', () => {
    const base = form([element({ type: 'Select One or "Other"', options: ['a'], otherPrompt: 'O', logicGroups: [group(1, [-1]), group(1, [-1, 0])] }), text()]);
    const next = toggleOther(base, 0, { enabled: false });
    expect(logicOf(next.elements[0])).toEqual([group(1, [0])]);
  });

  it('fails on a non-selection element', () => {
    expect(() => toggleOther(form([text()]), 0, { enabled: true, otherPrompt: 'x' })).toThrow(/selection questions only/);
  });
});

describe('moveElement', () => {
  it('moves a buyer element to a new row at the end of the attendee section', () => {
    const order = form([text(), text(), text({ askAllAttendees: true })], { type: 'order' });
    const next = moveElement(order, 0, 'attendee');
    expect(next.elements[0]).toMatchObject({ askAllAttendees: true });
    expect(next.attendeeRowsStart).toBe(1);
    expect(next.rows.map((row) => row.columns[0]?.elementIndex)).toEqual([1, 2, 0]);
    expect(formRuleErrors(next, new Map())).toEqual([]);
  });

  it('moves an attendee element to the end of the buyer section', () => {
    const order = form([text(), text({ askAllAttendees: true }), text({ askAllAttendees: true })], { type: 'order' });
    const next = moveElement(order, 2, 'buyer');
    expect(next.attendeeRowsStart).toBe(2);
    expect(next.rows.map((row) => row.columns[0]?.elementIndex)).toEqual([0, 2, 1]);
  });

  it('lets the rules catch an attendee element that would reveal a buyer element', () => {
    const order = form([yesNo({ logicGroups: [{ revealedElementIndex: 1, selectionType: 'is', value: true }] }), text()], { type: 'order' });
    const next = moveElement(order, 0, 'attendee');
    expect(formRuleErrors(next, new Map()).map((detail) => detail.path)).toContain('elements[0].logicGroups[0].revealedElementIndex');
  });

  it('fails on standalone forms', () => {
    expect(() => moveElement(form([text()]), 0, 'attendee')).toThrow(/order forms/);
  });
});

describe('logic rules', () => {
  it('adds a selection group and a Yes/No group with their own shapes', () => {
    const base = form([selectOne(), yesNo(), text()]);
    const target = base.elements[2]?.id as string;
    const withSelection = addLogicRule(base, 0, { revealedElementId: target, condition: { optionIndices: [1], operator: 'all_of' } }).form;
    const withYesNo = addLogicRule(withSelection, 1, { revealedElementId: target, condition: { selectionType: 'is', value: false } }).form;
    expect(logicOf(withYesNo.elements[0])).toEqual([{ revealedElementIndex: 2, optionIndices: [1], operator: 'all_of' }]);
    expect(logicOf(withYesNo.elements[1])).toEqual([{ revealedElementIndex: 2, selectionType: 'is', value: false }]);
  });

  it.each([
    ['a Text source', 0, { optionIndices: [0], operator: 'any_of' }, 'elementId'],
    ['a Yes/No condition on a selection source', 1, { selectionType: 'is', value: true }, 'condition'],
    ['a selection condition on a Yes/No source', 2, { optionIndices: [0], operator: 'any_of' }, 'condition'],
  ] as [string, number, LogicRuleBody['condition'], string][])('rejects %s', (_name, source, condition, path) => {
    const base = form([text(), selectOne(), yesNo(), text()]);
    expect(() => addLogicRule(base, source, { revealedElementId: base.elements[3]?.id as string, condition }))
      .toThrow(expect.objectContaining({ details: [expect.objectContaining({ path })] }));
  });

  it('removes every group revealing one element and then the logicGroups field', () => {
    const base = form([selectOne({ logicGroups: [group(1), group(2), group(1, [2])] }), text(), text()]);
    const once = removeLogicRule(base, 0, base.elements[1]?.id as string);
    const twice = removeLogicRule(once, 0, base.elements[2]?.id as string);
    expect(logicOf(once.elements[0])).toEqual([group(2)]);
    expect(twice.elements[0]).not.toHaveProperty('logicGroups');
    expect(() => removeLogicRule(twice, 0, base.elements[1]?.id as string)).toThrow(/not found/);
  });
});

describe('editSettings and duplicateForm', () => {
  it('changes provided settings only and refuses another type or isEventForm', () => {
    const base = form([], { submitButtonAlign: 'left' });
    expect(editSettings(base, { name: 'New', submitButtonAlign: null })).toMatchObject({ name: 'New', status: 'draft' });
    expect(editSettings(base, { submitButtonAlign: null })).not.toHaveProperty('submitButtonAlign');
    expect(() => editSettings(base, { isEventForm: true } as EditFormBody)).toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'isEventForm' })] }));
    expect(() => editSettings(base, { type: 'order' } as EditFormBody)).toThrow(expect.objectContaining({ details: [expect.objectContaining({ path: 'type' })] }));
  });

  it('takes a whole GET body back: unchanged server fields, type, elements and layout are accepted, changed ones refused', () => {
    // Prepare: the form as a GET returns it, with a computed propertyData on its element
    const base = form([text()], { version: 4 });
    const read = { ...base, elements: base.elements.map((element) => ({ ...element, propertyData: { type: 'Text', objectType: 'contact', status: 'active' } })) };
    // Act
    const renamed = editSettings(base, { ...read, name: 'Renamed' } as EditFormBody);
    // Assess
    expect(renamed).toEqual({ ...base, name: 'Renamed' });
    expect(() => editSettings(base, { ...read, createdAt: '2020-01-01T00:00:00Z' } as EditFormBody)).toThrow(expect.objectContaining({ details: [{ path: 'createdAt', message: expect.stringMatching(/read-only/) }] }));
    expect(() => editSettings(base, { ...read, rows: [] } as EditFormBody)).toThrow(expect.objectContaining({ details: [{ path: 'rows', message: expect.stringMatching(/PUT \/v1\/forms\/\{formId\}\/layout/) }] }));
    expect(() => editSettings(base, { ...read, version: 3 } as EditFormBody)).toThrow(ConflictError);
  });

  it.each([
    ['a 200-character name', 'a'.repeat(200), `[Copy] ${'a'.repeat(193)}`],
    ['an emoji straddling the cut, dropped whole', `${'c'.repeat(192)}\u{1F389}tail`, `[Copy] ${'c'.repeat(192)}`],
    ['an emoji ending right at the cut, kept', `${'d'.repeat(191)}\u{1F389}tail`, `[Copy] ${'d'.repeat(191)}\u{1F389}`],
    ['a space at the cut, trimmed as the name schema would', `${'e'.repeat(192)} tail`, `[Copy] ${'e'.repeat(192)}`],
  ])('names the copy within the 200-character limit, never splitting a surrogate pair: %s', (_label, name, expected) => {
    // Prepare
    const base = form([text()], { name });
    // Act
    const copy = duplicateForm(base, {}, new Date('2026-03-01T00:00:00Z'));
    // Assess
    expect(copy.name).toBe(expected);
    expect(copy.name.length).toBeLessThanOrEqual(200);
    expect(/\p{Cs}/u.test(copy.name)).toBe(false);
  });

  it('copies elements with new ids, keeps layout and logic, and defaults to a [Copy] draft', () => {
    const base = form([selectOne({ logicGroups: [group(1)] }), text()], { name: 'Survey', status: 'active', version: 7 });
    const copy = duplicateForm(base, {}, new Date('2026-03-01T00:00:00Z'));
    expect(copy).toMatchObject({ name: '[Copy] Survey', status: 'draft', version: 1, rows: base.rows, createdAt: '2026-03-01T00:00:00.000Z' });
    expect(copy.elements.map((e) => e.id)).not.toContain(base.elements[0]?.id);
    expect(logicOf(copy.elements[0])).toEqual([group(1)]);
  });
});
