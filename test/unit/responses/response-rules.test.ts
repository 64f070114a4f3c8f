import { describe, expect, it } from 'vitest';
import type { FormElement } from '../../../shared/forms/form-element-model.js';
import { answerProblem, isBlank, missingProblem, submissionProblems } from '../../../shared/responses/response-rules.js';
import { element, form, selectOne, text, yesNo } from '../forms/form-factories.js';

const idOf = (e: FormElement) => e.id as string;
const linkedTo = (...values: string[]) => ({ type: 'Select Multiple', objectType: 'contact', status: 'active', options: values.map((value) => ({ value, label: value })) });
const yesReveals = (revealedElementIndex: number, value = true) => ({ revealedElementIndex, selectionType: 'is', value });

describe('answerProblem', () => {
  it.each<[string, Record<string, unknown>, unknown, boolean]>([
    ['Text takes a string', { type: 'Text' }, 'Ada', true],
    ['Text refuses a number', { type: 'Text' }, 42, false],
    ['Phone takes a string', { type: 'Phone' }, '+1 555 0100', true],
    ['Email takes an address', { type: 'Email' }, 'ada@example.com', true],
    ['Text setting firstName takes 200 characters (trimmed, as the contact stores it)', { type: 'Text', contactField: 'firstName' }, ` ${'a'.repeat(200)} `, true],
    ['Text setting firstName refuses 201 characters, as the contacts API does', { type: 'Text', contactField: 'firstName' }, 'a'.repeat(201), false],
    ['Text setting lastName refuses 201 characters', { type: 'Text', contactField: 'lastName' }, 'a'.repeat(201), false],
    ['Text without contactField takes 201 characters', { type: 'Text' }, 'a'.repeat(201), true],
    ['Phone setting phone refuses 51 characters', { type: 'Phone', contactField: 'phone' }, '5'.repeat(51), false],
    ['Email setting email refuses an address over 254 characters', { type: 'Email', contactField: 'email' }, `${'a'.repeat(64)}@${'b'.repeat(190)}.com`, false],
    ['Email refuses a non-address', { type: 'Email' }, 'ada@', false],
    ['Number takes a finite number', { type: 'Number' }, 2.5, true],
    ['Number refuses a numeric string', { type: 'Number' }, '2', false],
    ['Number integerOnly refuses a fraction', { type: 'Number', integerOnly: true }, 2.5, false],
    ['Number below minValue', { type: 'Number', minValue: 1 }, 0, false],
    ['Number above maxValue', { type: 'Number', maxValue: 10 }, 11, false],
    ['Number at its bounds', { type: 'Number', minValue: 1, maxValue: 10 }, 10, true],
    ['Yes/No takes false', { type: 'Yes/No' }, false, true],
    ['Yes/No refuses "yes"', { type: 'Yes/No' }, 'yes', false],
    ['Yes/No yesRequired refuses false', { type: 'Yes/No', yesRequired: true }, false, false],
    ['Date takes a calendar date', { type: 'Date' }, '2026-02-28', true],
    ['Date refuses an impossible date', { type: 'Date' }, '2026-02-30', false],
    ['Date before min', { type: 'Date', min: '2026-01-01' }, '2025-12-31', false],
    ['Date after max', { type: 'Date', max: '2026-01-01' }, '2026-01-02', false],
    ['Select One takes an option', { type: 'Select One', options: ['S', 'M'] }, 'M', true],
    ['Select One refuses another string', { type: 'Select One', options: ['S', 'M'] }, 'XL', false],
    ['Select One or Other takes any string as the Other answer', { type: 'Select One or "Other"', options: ['S'], otherPrompt: 'Other' }, 'XL', true],
    ['Select One refuses an array', { type: 'Select One', options: ['S'] }, ['S'], false],
    ['Select One linked to a property takes the property values', { type: 'Select One', propertyData: { type: 'Select One', objectType: 'contact', status: 'active', options: [{ value: 'gold', label: 'Gold' }] } }, 'gold', true],
    ['Select Multiple takes options', { type: 'Select Multiple', options: ['A', 'B'], minChoices: 0 }, ['A', 'B'], true],
    ['Select Multiple refuses a repeated option', { type: 'Select Multiple', options: ['A', 'B'], minChoices: 0 }, ['A', 'A'], false],
    ['Select Multiple refuses an unknown option', { type: 'Select Multiple', options: ['A'], minChoices: 0 }, ['Z'], false],
    ['Select Multiple below minChoices', { type: 'Select Multiple', options: ['A', 'B'], minChoices: 2 }, ['A'], false],
    ['Select Multiple above maxChoices', { type: 'Select Multiple', options: ['A', 'B'], minChoices: 0, maxChoices: 1 }, ['A', 'B'], false],
    ['Select Multiple linked to a property that lost options: minChoices is capped at the options left', { type: 'Select Multiple', propertyId: 'p', propertyData: linkedTo('a'), minChoices: 2 }, ['a'], true],
    ['Select Multiple linked, with Other: the cap counts the Other option', { type: 'Select Multiple with "Other"', propertyId: 'p', propertyData: linkedTo('a'), minChoices: 3, otherPrompt: 'Other' }, ['a', 'z'], true],
    ['Select Multiple linked, with Other: below the capped minimum', { type: 'Select Multiple with "Other"', propertyId: 'p', propertyData: linkedTo('a'), minChoices: 3, otherPrompt: 'Other' }, ['a'], false],
    ['Select Multiple with Other takes one Other text', { type: 'Select Multiple with "Other"', options: ['A'], minChoices: 0, otherPrompt: 'Other' }, ['A', 'Z'], true],
    ['Select Multiple with Other refuses two Other texts', { type: 'Select Multiple with "Other"', options: ['A'], minChoices: 0, otherPrompt: 'Other' }, ['Y', 'Z'], false],
    ['File takes an uploaded file URL', { type: 'File', accept: ['images'] }, 'https://files.example/a.png', true],
    ['File refuses an object', { type: 'File', accept: ['images'] }, { url: 'x' }, false],
    ['File takes an http URL', { type: 'File', accept: ['images'] }, 'http://files.example/a.png', true],
    ['File takes an uploaded file id', { type: 'File', accept: ['images'] }, '6740f1a2c3d4e5f601234567', true],
    ['File refuses a javascript: URL', { type: 'File', accept: ['images'] }, 'javascript:alert(1)', false],
    ['File refuses a javascript: URL spelled with a tab and leading space', { type: 'File', accept: ['images'] }, ' java\tscript:alert(1)', false],
    ['File refuses a file: URL', { type: 'File', accept: ['images'] }, 'file:///etc/passwd', false],
    ['File refuses a data: URL', { type: 'File', accept: ['images'] }, 'data:text/html,<script>alert(1)</script>', false],
    ['File refuses a relative reference', { type: 'File', accept: ['images'] }, '/uploads/a.png', false],
    ['File refuses free text', { type: 'File', accept: ['images'] }, 'not a url at all', false],
    ['File refuses an id in another format', { type: 'File', accept: ['images'] }, '6740F1A2C3D4E5F601234567', false],
    ['Static Text takes no answer', { type: 'Static Text', content: 'Hi' }, 'x', false],
  ])('%s', (_name, fields, value, valid) => {
    // Act
    const problem = answerProblem(element(fields), value);
    // Assess
    expect(problem === undefined).toBe(valid);
  });
});

describe('missingProblem and isBlank', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['a required Text', { type: 'Text', required: true }, true],
    ['an optional Text', { type: 'Text' }, false],
    ['a Select Multiple with minChoices 0', { type: 'Select Multiple', options: ['A'], minChoices: 0 }, false],
    ['a Select Multiple with minChoices 1', { type: 'Select Multiple', options: ['A'], minChoices: 1 }, true],
    ['a linked Select Multiple with minChoices 2 whose property has no options left', { type: 'Select Multiple', propertyId: 'p', propertyData: { ...linkedTo(), options: [] }, minChoices: 2 }, false],
    ['a Yes/No with yesRequired', { type: 'Yes/No', yesRequired: true }, true],
  ])('%s left blank blocks the submission: %s', (_name, fields, blocks) => {
    expect(missingProblem(element(fields)) !== undefined).toBe(blocks);
  });

  it('counts null, blank strings and empty arrays as no answer, but not false or 0', () => {
    expect([undefined, null, '  ', []].every(isBlank)).toBe(true);
    expect([false, 0, 'x', ['A']].some(isBlank)).toBe(false);
  });
});

describe('submissionProblems', () => {
  it('accepts a valid standalone submission', () => {
    // Prepare
    const name = text({ required: true });
    // Act
    const problems = submissionProblems(form([name]), { answers: { [idOf(name)]: 'Ada' } });
    // Assess
    expect(problems).toEqual([]);
  });

  it('names unknown element ids, static elements and missing required answers by path', () => {
    // Prepare
    const name = text({ required: true });
    const notice = element({ type: 'Static Text', content: 'Read me' });
    // Act
    const problems = submissionProblems(form([name, notice]), { answers: { nope: 'x', [idOf(notice)]: 'x' } });
    // Assess
    expect(problems).toEqual([
      { path: 'answers.nope', message: 'no element of this form has this id' },
      { path: `answers.${idOf(notice)}`, message: 'is static content and takes no answer' },
      { path: `answers.${idOf(name)}`, message: 'is required' },
    ]);
  });

  it('neither requires nor accepts an element hidden by logic, and requires it once revealed', () => {
    // Prepare
    const optIn = yesNo({ logicGroups: [yesReveals(1)] });
    const topics = text({ required: true });
    const f = form([optIn, topics]);
    // Act
    const hiddenBlank = submissionProblems(f, { answers: { [idOf(optIn)]: false } });
    const hiddenAnswered = submissionProblems(f, { answers: { [idOf(optIn)]: false, [idOf(topics)]: 'Rust' } });
    const revealedBlank = submissionProblems(f, { answers: { [idOf(optIn)]: true } });
    // Assess
    expect(hiddenBlank).toEqual([]);
    expect(hiddenAnswered).toEqual([{ path: `answers.${idOf(topics)}`, message: expect.stringContaining('hidden') }]);
    expect(revealedBlank).toEqual([{ path: `answers.${idOf(topics)}`, message: 'is required' }]);
  });

  it('tells a Yes/No left unanswered apart from an explicit No', () => {
    // Prepare
    const optIn = yesNo({ logicGroups: [yesReveals(1, false)] });
    const why = text({ required: true });
    const f = form([optIn, why]);
    // Act
    const unanswered = submissionProblems(f, { answers: {} });
    const answeredNo = submissionProblems(f, { answers: { [idOf(optIn)]: false } });
    // Assess
    expect(unanswered).toEqual([]);
    expect(answeredNo).toEqual([{ path: `answers.${idOf(why)}`, message: 'is required' }]);
  });

  it('reveals through the Other option of a select question', () => {
    // Prepare
    const size = element({ type: 'Select One or "Other"', options: ['S'], otherPrompt: 'Other', logicGroups: [{ revealedElementIndex: 1, optionIndices: [-1], operator: 'any_of' }] });
    const detail = text({ required: true });
    const f = form([size, detail]);
    // Act
    const other = submissionProblems(f, { answers: { [idOf(size)]: 'XXL' } });
    const option = submissionProblems(f, { answers: { [idOf(size)]: 'S' } });
    // Assess
    expect(other).toEqual([{ path: `answers.${idOf(detail)}`, message: 'is required' }]);
    expect(option).toEqual([]);
  });

  it('hides elements limited to cart items: a submission has no cart', () => {
    // Prepare
    const tshirt = text({ forEventItems: [{ type: 'eventItem', eventId: 'e', itemId: 'i' }] });
    // Act
    const problems = submissionProblems(form([tshirt], { type: 'order' }), { answers: { [idOf(tshirt)]: 'M' } });
    // Assess
    expect(problems).toEqual([{ path: `answers.${idOf(tshirt)}`, message: expect.stringContaining('hidden') }]);
  });

  it('refuses attendees on standalone forms', () => {
    expect(submissionProblems(form([text()]), { answers: {}, attendees: [{}] })).toEqual([{ path: 'attendees', message: 'standalone forms take no attendees' }]);
  });

  describe('order forms', () => {
    const orderForm = () => {
      const wantsShirt = yesNo({ askAllAttendees: true, logicGroups: [yesReveals(2)] });
      const buyer = text({ required: true });
      const size = selectOne({ askAllAttendees: true, required: true });
      return { wantsShirt, buyer, size, f: form([wantsShirt, buyer, size], { type: 'order' }) };
    };

    it('requires at least one attendee when the form asks attendees', () => {
      const { buyer, f } = orderForm();
      expect(submissionProblems(f, { answers: { [idOf(buyer)]: 'Ada' } })).toEqual([{ path: 'attendees', message: expect.stringContaining('at least one attendee') }]);
    });

    it('evaluates each attendee instance with that attendee\'s answers', () => {
      // Prepare
      const { wantsShirt, buyer, size, f } = orderForm();
      // Act
      const problems = submissionProblems(f, {
        answers: { [idOf(buyer)]: 'Ada' },
        attendees: [{ [idOf(wantsShirt)]: true }, { [idOf(wantsShirt)]: false, [idOf(size)]: 'A' }, { [idOf(wantsShirt)]: true, [idOf(size)]: 'B' }],
      });
      // Assess
      expect(problems).toEqual([
        { path: `attendees[0].${idOf(size)}`, message: 'is required' },
        { path: `attendees[1].${idOf(size)}`, message: expect.stringContaining('hidden') },
      ]);
    });

    it('keeps buyer and attendee answers in their own sections', () => {
      // Prepare
      const { wantsShirt, buyer, f } = orderForm();
      // Act
      const problems = submissionProblems(f, { answers: { [idOf(buyer)]: 'Ada', [idOf(wantsShirt)]: false }, attendees: [{ [idOf(buyer)]: 'Bob', [idOf(wantsShirt)]: false }] });
      // Assess
      expect(problems).toEqual([
        { path: `answers.${idOf(wantsShirt)}`, message: expect.stringContaining('attendees[i]') },
        { path: `attendees[0].${idOf(buyer)}`, message: expect.stringContaining('buyer question') },
      ]);
    });
  });
});
