import { describe, expect, it } from 'vitest';
import { visibleElementIds } from '../../../shared/forms/logic-evaluator.js';
import type { FormElement } from '../../../shared/forms/form-element-model.js';
import { element, form, selectOne, text, yesNo } from './form-factories.js';

const reveal = (revealedElementIndex: number, optionIndices: number[], operator: string) => ({ revealedElementIndex, optionIndices, operator });
const yesNoReveal = (revealedElementIndex: number, selectionType: string, value: boolean) => ({ revealedElementIndex, selectionType, value });
const idsOf = (elements: FormElement[], ...indices: number[]) => new Set(indices.map((index) => elements[index]?.id));

describe('visibleElementIds', () => {
  it('shows every element that no group references', () => {
    const elements = [text(), selectOne()];
    expect(visibleElementIds(form(elements), { answers: {} })).toEqual(idsOf(elements, 0, 1));
  });

  it.each<[string, string, number[], unknown, boolean]>([
    ['any_of with a matching option', 'any_of', [0, 2], 'C', true],
    ['any_of without a matching option', 'any_of', [0, 2], 'B', false],
    ['any_of with no answer', 'any_of', [0], undefined, false],
    ['all_of with every option chosen', 'all_of', [0, 1], ['A', 'B'], true],
    ['all_of with one option missing', 'all_of', [0, 1], ['A'], false],
    ['none_of with another option', 'none_of', [0], 'B', true],
    ['none_of with the option', 'none_of', [0], 'A', false],
    ['none_of with no answer', 'none_of', [0], undefined, true],
  ])('%s', (_name, operator, optionIndices, answer, visible) => {
    // Prepare
    const elements = [element({ type: 'Select Multiple', options: ['A', 'B', 'C'], minChoices: 0, logicGroups: [reveal(1, optionIndices, operator)] }), text()];
    const source = elements[0]?.id as string;
    // Act
    const shown = visibleElementIds(form(elements), { answers: answer === undefined ? {} : { [source]: answer } });
    // Assess
    expect(shown.has(elements[1]?.id as string)).toBe(visible);
  });

  it('treats a free-text answer as the Other option (-1) on Other types only', () => {
    const withOther = [element({ type: 'Select One or "Other"', options: ['A'], otherPrompt: 'Other', logicGroups: [reveal(1, [-1], 'any_of')] }), text()];
    const plain = [selectOne({ logicGroups: [reveal(1, [0], 'none_of')] }), text()];
    expect(visibleElementIds(form(withOther), { answers: { [withOther[0]?.id as string]: 'Something else' } }).has(withOther[1]?.id as string)).toBe(true);
    expect(visibleElementIds(form(withOther), { answers: { [withOther[0]?.id as string]: 'A' } }).has(withOther[1]?.id as string)).toBe(false);
    expect(visibleElementIds(form(plain), { answers: { [plain[0]?.id as string]: 'Unknown' } }).has(plain[1]?.id as string)).toBe(true);
  });

  it('reads linked questions by property option value', () => {
    const elements = [
      selectOne({ options: undefined, propertyId: 'p', propertyData: { type: 'Select One', objectType: 'contact', status: 'active', options: [{ value: 'vip', label: 'VIP' }] }, logicGroups: [reveal(1, [0], 'any_of')] }),
      text(),
    ];
    expect(visibleElementIds(form(elements), { answers: { [elements[0]?.id as string]: 'vip' } }).has(elements[1]?.id as string)).toBe(true);
  });

  it.each<[string, number[], string, boolean]>([
    ['any_of', [1], 'any_of', false],
    ['all_of', [1], 'all_of', false],
    ['none_of', [1], 'none_of', true],
  ])('reads an option index the linked property no longer has as never chosen (%s)', (_name, optionIndices, operator, visible) => {
    // Prepare: the group was added when the property had two options; it has one now
    const linked = { type: 'Select Multiple', objectType: 'contact', status: 'active', options: [{ value: 'vip', label: 'VIP' }] };
    const elements = [element({ type: 'Select Multiple', propertyId: 'p', propertyData: linked, minChoices: 0, logicGroups: [reveal(1, optionIndices, operator)] }), text()];
    // Act
    const shown = visibleElementIds(form(elements), { answers: { [elements[0]?.id as string]: ['vip'] } });
    // Assess
    expect(shown.has(elements[1]?.id as string)).toBe(visible);
  });

  it.each<[string, string, boolean, unknown, boolean]>([
    ['is true with Yes', 'is', true, true, true],
    ['is true with No', 'is', true, false, false],
    ['is false with No', 'is', false, false, true],
    ['is false with no answer (no answer is not false)', 'is', false, undefined, false],
    ['is_not true with No', 'is_not', true, false, true],
    ['is_not true with no answer', 'is_not', true, undefined, true],
    ['is_not false with Yes', 'is_not', false, true, true],
    ['is_not false with No', 'is_not', false, false, false],
  ])('Yes/No %s', (_name, selectionType, value, answer, visible) => {
    const elements = [yesNo({ logicGroups: [yesNoReveal(1, selectionType, value)] }), text()];
    const answers = answer === undefined ? {} : { [elements[0]?.id as string]: answer };
    expect(visibleElementIds(form(elements), { answers }).has(elements[1]?.id as string)).toBe(visible);
  });

  it('reveals when any one of several groups is satisfied (OR across groups)', () => {
    const elements = [yesNo({ logicGroups: [yesNoReveal(2, 'is', true)] }), selectOne({ logicGroups: [reveal(2, [1], 'any_of')] }), text()];
    const answers = { [elements[0]?.id as string]: false, [elements[1]?.id as string]: 'B' };
    expect(visibleElementIds(form(elements), { answers }).has(elements[2]?.id as string)).toBe(true);
  });

  it('ignores the answer of a hidden source, through chains in any order', () => {
    // 2 reveals 1 reveals 0; 2 is hidden by nothing, so the chain opens only from its start.
    const elements = [text(), yesNo({ logicGroups: [yesNoReveal(0, 'is', true)] }), yesNo({ logicGroups: [yesNoReveal(1, 'is', true)] })];
    const [first, middle, start] = elements.map((e) => e.id as string) as [string, string, string];
    expect(visibleElementIds(form(elements), { answers: { [middle]: true, [start]: true } })).toEqual(new Set([first, middle, start]));
    expect(visibleElementIds(form(elements), { answers: { [middle]: true, [start]: false } })).toEqual(new Set([start]));
  });

  it('keeps a cycle with no outside trigger hidden', () => {
    const elements = [yesNo({ logicGroups: [yesNoReveal(1, 'is_not', true)] }), yesNo({ logicGroups: [yesNoReveal(0, 'is_not', true)] })];
    expect(visibleElementIds(form(elements), { answers: {} }).size).toBe(0);
  });

  it('uses the attendee answers for attendee sources and the buyer answers for buyer sources', () => {
    const elements = [
      yesNo({ logicGroups: [yesNoReveal(2, 'is', true)] }),
      yesNo({ askAllAttendees: true, logicGroups: [yesNoReveal(3, 'is', true)] }),
      text({ askAllAttendees: true }),
      text({ askAllAttendees: true }),
    ];
    const [buyer, attendee, byBuyer, byAttendee] = elements.map((e) => e.id as string) as [string, string, string, string];
    const shown = visibleElementIds(form(elements, { type: 'order' }), { answers: { [buyer]: true, [attendee]: false }, attendee: { [attendee]: true } });
    expect(shown.has(byBuyer)).toBe(true);
    expect(shown.has(byAttendee)).toBe(true);
  });

  it('shows forEventItems elements only when a referenced item is in the cart', () => {
    const ticket = { type: 'eventProduct', eventId: 'e1', productId: 'p1' } as const;
    const elements = [text({ forEventItems: [ticket] }), text({ forEventItems: [] })];
    const order = form(elements, { type: 'order' });
    expect(visibleElementIds(order, { answers: {} }).size).toBe(0);
    expect(visibleElementIds(order, { answers: {}, cart: [{ productId: 'p1', eventId: 'e1', type: 'eventProduct' }] })).toEqual(idsOf(elements, 0));
  });
});
