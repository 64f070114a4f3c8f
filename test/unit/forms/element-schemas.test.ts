import { describe, expect, it } from 'vitest';
import { formElementSchema } from '../../../shared/forms/form-element-model.js';
import { issuesToDetails } from '../../../shared/http/operation.js';

const PROPERTY = '6740f1a2c3d4e5f601234567';

/** [type, a valid element of that type with every optional field it may carry]. */
const VALID: [string, Record<string, unknown>][] = [
  ['Text', { prompt: 'Name', required: true, placeholder: 'Jane', contactField: 'firstName', helperText: 'h', promptHidden: false }],
  ['Multi-line Text', { prompt: 'Bio', required: false, placeholder: 'About you', propertyId: PROPERTY }],
  ['Number', { prompt: 'Age', minValue: 0, maxValue: 120, integerOnly: true, placeholder: '30' }],
  ['Select One', { prompt: 'Size', options: ['S', 'M'], dropdown: true, placeholder: 'Pick', required: true, logicGroups: [{ revealedElementIndex: 1, optionIndices: [0], operator: 'any_of' }] }],
  ['Select One or "Other"', { prompt: 'Size', options: ['S'], otherPrompt: 'Other size' }],
  ['Select Multiple', { prompt: 'Topics', options: ['a', 'b'], minChoices: 0, maxChoices: 2, dropdown: false }],
  ['Select Multiple with "Other"', { prompt: 'Topics', propertyId: PROPERTY, minChoices: 1, otherPrompt: 'More' }],
  ['Yes/No', { prompt: 'News?', dropdown: true, yesRequired: true, contactField: 'status', logicGroups: [{ revealedElementIndex: 0, selectionType: 'is', value: false }] }],
  ['Date', { prompt: 'Birthday', min: '1900-01-01', max: '2026-12-31', required: true }],
  ['File', { prompt: 'CV', accept: ['documents', 'images'] }],
  ['Email', { prompt: 'Email', contactField: 'email', required: true, placeholder: 'a@b.c' }],
  ['Phone', { prompt: 'Phone', contactField: 'phone' }],
  ['Static Text', { prompt: 'Intro', content: 'Welcome' }],
  ['Static Image', { prompt: 'Logo', imageUrl: 'https://example.com/a.png', imageWidth: 50 }],
];

/** [type, element fields, offending path]: a field the type does not have, a missing or malformed one. */
const INVALID: [string, Record<string, unknown>, string][] = [
  ['Text', { prompt: 'Name', contactField: 'email' }, 'contactField'],
  ['Text', { prompt: 'Name', options: ['a'] }, 'options'],
  ['Text', { prompt: '' }, 'prompt'],
  ['Multi-line Text', { prompt: 'Bio', contactField: 'firstName' }, 'contactField'],
  ['Number', { prompt: 'Age', min: '2020-01-01' }, 'min'],
  ['Number', { prompt: 'Age', integerOnly: 'yes' }, 'integerOnly'],
  ['Select One', { prompt: 'Size', options: [] }, 'options'],
  ['Select One', { prompt: 'Size', options: ['S'], minChoices: 1 }, 'minChoices'],
  ['Select One', { prompt: 'Size', options: ['S'], otherPrompt: 'x' }, 'otherPrompt'],
  ['Select One or "Other"', { prompt: 'Size', options: ['S'] }, 'otherPrompt'],
  ['Select Multiple', { prompt: 'Topics', options: ['a'] }, 'minChoices'],
  ['Select Multiple', { prompt: 'Topics', options: ['a'], minChoices: 0, required: true }, 'required'],
  ['Select Multiple', { prompt: 'Topics', options: ['a'], minChoices: 0, dropdown: true }, 'dropdown'],
  ['Select Multiple', { prompt: 'Topics', options: ['a'], minChoices: 0, placeholder: 'x' }, 'placeholder'],
  ['Select Multiple with "Other"', { prompt: 'Topics', options: ['a'], minChoices: 0 }, 'otherPrompt'],
  ['Yes/No', { prompt: 'News?' }, 'dropdown'],
  ['Yes/No', { prompt: 'News?', dropdown: false }, 'dropdown'],
  ['Yes/No', { prompt: 'News?', dropdown: true, placeholder: 'x' }, 'placeholder'],
  ['Yes/No', { prompt: 'News?', dropdown: true, logicGroups: [{ revealedElementIndex: 0, optionIndices: [0], operator: 'any_of' }] }, 'logicGroups[0].optionIndices'],
  ['Date', { prompt: 'When', min: '01/02/2026' }, 'min'],
  ['Date', { prompt: 'When', placeholder: 'x' }, 'placeholder'],
  ['File', { prompt: 'CV' }, 'accept'],
  ['File', { prompt: 'CV', accept: [] }, 'accept'],
  ['File', { prompt: 'CV', accept: ['pdf'] }, 'accept[0]'],
  ['Email', { prompt: 'Email', contactField: 'phone' }, 'contactField'],
  ['Phone', { prompt: 'Phone', contactField: 'email' }, 'contactField'],
  ['Static Text', { prompt: 'Intro' }, 'content'],
  ['Static Text', { prompt: 'Intro', content: 'x', required: true }, 'required'],
  ['Static Text', { prompt: 'Intro', content: 'x', propertyId: PROPERTY }, 'propertyId'],
  ['Static Image', { prompt: 'Logo' }, 'imageUrl'],
  ['Static Image', { prompt: 'Logo', imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
  ['Static Image', { prompt: 'Logo', imageUrl: 'data:image/png;base64,AAAA' }, 'imageUrl'],
  ['Static Image', { prompt: 'Logo', imageUrl: 'https://cdn.example.com/logo.png', imageWidth: 0 }, 'imageWidth'],
  ['Static Image', { prompt: 'Logo', imageUrl: 'https://cdn.example.com/logo.png', imageWidth: 101 }, 'imageWidth'],
];

describe('form element schema', () => {
  it.each(VALID)('accepts a %s element with its fields', (type, fields) => {
    // Act
    const result = formElementSchema.safeParse({ type, ...fields });
    // Assess
    expect(result.error?.issues).toBeUndefined();
  });

  it.each(INVALID)('rejects a %s element %j at %s', (type, fields, path) => {
    // Act
    const result = formElementSchema.safeParse({ type, ...fields });
    // Assess
    expect(result.success).toBe(false);
    expect(issuesToDetails(result.error!).map((detail) => detail.path)).toContain(path);
  });

  it('rejects an unknown element type', () => {
    const result = formElementSchema.safeParse({ type: 'Signature', prompt: 'Sign' });
    expect(result.success).toBe(false);
  });

  it('defaults imageWidth to 100', () => {
    const result = formElementSchema.parse({ type: 'Static Image', prompt: 'Logo', imageUrl: 'https://cdn.example.com/logo.png' });
    expect(result).toMatchObject({ imageWidth: 100 });
  });

  it.each([
    [{ type: 'eventItem', eventId: 'e', itemId: 'i' }, true],
    [{ type: 'eventProduct', eventId: 'e', productId: 'p' }, true],
    [{ type: 'checkoutProduct', checkoutId: 'c', productId: 'p' }, true],
    [{ type: 'eventItem', eventId: 'e' }, false],
    [{ type: 'coupon', code: 'x' }, false],
  ])('checks the forEventItems reference %j (valid: %s)', (reference, valid) => {
    const result = formElementSchema.safeParse({ type: 'Text', prompt: 'x', forEventItems: [reference] });
    expect(result.success).toBe(valid);
  });
});
