import type { Inline, Mark, RichText } from '../../../shared/rich-text/rich-text-schema.js';

/** Small builders for rich-text trees (response variant unless a test needs raw request input). */
export const text = (value: string, ...marks: Mark[]): Inline => (marks.length > 0 ? { type: 'text', text: value, marks } : { type: 'text', text: value });
export const smart = (key: string, ...marks: Mark[]): Inline => (marks.length > 0 ? { type: 'smartValue', attrs: { key }, marks } : { type: 'smartValue', attrs: { key } });
export const hardBreak = (): Inline => ({ type: 'hardBreak' });
export const link = (href: string): Mark => ({ type: 'link', attrs: { href } });
export const paragraph = (content: Inline[], textAlign: 'left' | 'center' | 'right' | 'justify' = 'left') =>
  ({ type: 'paragraph' as const, attrs: { textAlign }, content });
export const item = (...content: Inline[]) => ({ type: 'listItem' as const, content: [paragraph(content)] });
export const bullets = (...items: ReturnType<typeof item>[]): RichText[number] => ({ type: 'bulletList', content: items });
export const ordered = (start: number, ...items: ReturnType<typeof item>[]): RichText[number] => ({ type: 'orderedList', attrs: { start }, content: items });
