import { describe, expect, it } from 'vitest';
import { FONT_SIZES, richTextRequestSchema, richTextResponseSchema } from '../../../shared/rich-text/rich-text-schema.js';

const para = (content: unknown[] = [{ type: 'text', text: 'Hi' }], extra: Record<string, unknown> = {}) => ({ type: 'paragraph', content, ...extra });
const listItem = (...paragraphs: unknown[]) => ({ type: 'listItem', content: paragraphs });
const withMark = (mark: unknown) => [para([{ type: 'text', text: 'x', marks: [mark] }])];

function issuePaths(input: unknown): string[] {
  const result = richTextRequestSchema.safeParse(input);
  return result.success ? [] : [...new Set(result.error.issues.map((issue) => issue.path.join('.')))];
}

describe('rich-text request variant', () => {
  it('defaults paragraph textAlign to left and orderedList start to 1', () => {
    // Act
    const parsed = richTextRequestSchema.parse([para(), { type: 'orderedList', content: [listItem(para())] }]);
    // Assess
    expect(parsed[0]).toMatchObject({ attrs: { textAlign: 'left' } });
    expect(parsed[1]).toMatchObject({ attrs: { start: 1 } });
    expect(richTextResponseSchema.safeParse(parsed).success).toBe(true);
  });

  it('defaults an empty paragraph content to []', () => {
    expect(richTextRequestSchema.parse([{ type: 'paragraph' }])).toEqual([{ type: 'paragraph', attrs: { textAlign: 'left' }, content: [] }]);
  });

  it('accepts every textAlign value and rejects others', () => {
    for (const textAlign of ['left', 'center', 'right', 'justify']) expect(issuePaths([para(undefined, { attrs: { textAlign } })])).toEqual([]);
    expect(issuePaths([para(undefined, { attrs: { textAlign: 'middle' } })])).toEqual(['0.attrs.textAlign']);
  });

  it('requires exactly one paragraph per list item', () => {
    expect(issuePaths([{ type: 'bulletList', content: [listItem()] }])).toEqual(['0.content.0.content']);
    expect(issuePaths([{ type: 'bulletList', content: [listItem(para(), para())] }])).toEqual(['0.content.0.content']);
  });

  it('requires at least one item per list', () => {
    expect(issuePaths([{ type: 'bulletList', content: [] }])).toEqual(['0.content']);
    expect(issuePaths([{ type: 'orderedList', content: [] }])).toEqual(['0.content']);
  });

  it('bounds orderedList start to 1..2^53-1 integers', () => {
    const list = (start: unknown) => [{ type: 'orderedList', attrs: { start }, content: [listItem(para())] }];
    expect(issuePaths(list(9_007_199_254_740_991))).toEqual([]);
    expect(issuePaths(list(0))).toEqual(['0.attrs.start']);
    expect(issuePaths(list(1.5))).toEqual(['0.attrs.start']);
    expect(issuePaths(list(9_007_199_254_740_992))).toEqual(['0.attrs.start']);
  });

  it('rejects empty text and empty smart value keys', () => {
    expect(issuePaths([para([{ type: 'text', text: '' }])])).toEqual(['0.content.0.text']);
    expect(issuePaths([para([{ type: 'smartValue', attrs: { key: '' } }])])).toEqual(['0.content.0.attrs.key']);
  });

  it('accepts hardBreak and smartValue nodes with marks', () => {
    expect(issuePaths([para([{ type: 'hardBreak', marks: [{ type: 'bold' }] }, { type: 'smartValue', attrs: { key: 'event.name' }, marks: [{ type: 'italic' }] }])])).toEqual([]);
  });

  it('rejects unknown node and mark types, and lists inside paragraphs', () => {
    expect(issuePaths([{ type: 'heading', content: [] }])).toEqual(['0.type']);
    expect(issuePaths(withMark({ type: 'code' }))).toEqual(['0.content.0.marks.0.type']);
    expect(issuePaths([para([{ type: 'bulletList', content: [] }])])).toEqual(['0.content.0.type']);
  });

  it('accepts the simple marks', () => {
    for (const type of ['bold', 'italic', 'strike', 'underline']) expect(issuePaths(withMark({ type }))).toEqual([]);
  });

  it('accepts every allowed fontSize and nothing else', () => {
    for (const fontSize of FONT_SIZES) expect(issuePaths(withMark({ type: 'textStyle', attrs: { fontSize } }))).toEqual([]);
    for (const fontSize of [13, 16, 100, '12']) {
      expect(issuePaths(withMark({ type: 'textStyle', attrs: { fontSize } })), String(fontSize)).toEqual(['0.content.0.marks.0.attrs.fontSize']);
    }
  });

  it('accepts a link href that is a URL or exactly one smart value token', () => {
    for (const href of ['https://example.com/a?b=c', 'http://example.com', 'mailto:a@example.com', '{{event.url}}', '{{ partner.site }}', 'https://x.example/?r={{code}}']) {
      expect(issuePaths(withMark({ type: 'link', attrs: { href } })), href).toEqual([]);
    }
  });

  it('rejects a link href that is empty, not a URL, two tokens or a dangerous scheme', () => {
    for (const href of ['', 'not a url', '{{a}}{{b}}', '{{}}', 'javascript:alert(1)', 'data:text/html,x', '/relative/path']) {
      expect(issuePaths(withMark({ type: 'link', attrs: { href } })), href).toEqual(['0.content.0.marks.0.attrs.href']);
    }
  });
  it('refuses a key the tree does not define, at every level (nothing is dropped silently)', () => {
    // Prepare
    const cases: [unknown, string][] = [
      [[para(undefined, { foo: 1 })], '0'],
      [[para(undefined, { attrs: { textAlign: 'left', color: 'red' } })], '0.attrs'],
      [[para([{ type: 'text', text: 'x', foo: 1 }])], '0.content.0'],
      [[para([{ type: 'hardBreak', text: 'x' }])], '0.content.0'],
      [withMark({ type: 'bold', attrs: { x: 1 } }), '0.content.0.marks.0'],
      [withMark({ type: 'link', attrs: { href: 'https://example.com', target: '_blank' } }), '0.content.0.marks.0.attrs'],
      [[{ type: 'bulletList', content: [{ ...listItem(para()), checked: true }] }], '0.content.0'],
      [[{ type: 'orderedList', attrs: { start: 2, reversed: true }, content: [listItem(para())] }], '0.attrs'],
    ];

    // Act
    const paths = cases.map(([input]) => issuePaths(input));

    // Assess
    expect(paths).toEqual(cases.map(([, path]) => [path]));
  });
});

describe('rich-text response variant', () => {
  it('requires textAlign and orderedList attrs.start', () => {
    expect(richTextResponseSchema.safeParse([{ type: 'paragraph', content: [] }]).success).toBe(false);
    expect(richTextResponseSchema.safeParse([{ type: 'orderedList', attrs: {}, content: [listItem({ type: 'paragraph', attrs: { textAlign: 'left' }, content: [] })] }]).success).toBe(false);
    expect(richTextResponseSchema.safeParse([{ type: 'orderedList', attrs: { start: 3 }, content: [listItem({ type: 'paragraph', attrs: { textAlign: 'left' }, content: [] })] }]).success).toBe(true);
  });
});
