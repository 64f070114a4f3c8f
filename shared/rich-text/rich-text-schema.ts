import * as z from 'zod';
import { lazy } from '../model/lazy-schema.js';

/**
 * Rich-text content tree (spec "Rich-text content tree"), in two variants built from one factory:
 * the request variant lets clients omit defaulted attributes (`textAlign`, `orderedList.attrs.start`),
 * the response variant documents that they are always present. Parsing a request fills the defaults,
 * so what is stored already has the response shape.
 */

export const FONT_SIZES = [8, 9, 10, 11, 12, 14, 18, 24, 30, 36, 48, 60, 72, 96] as const;
export const TEXT_ALIGNS = ['left', 'center', 'right', 'justify'] as const;
/** Schemes a rendered link may carry; anything else is dropped by the renderer (and refused on input). */
export const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'] as const;

const MAX_SAFE = 9_007_199_254_740_991;
/** Limits that keep one event item well under DynamoDB's 400 KB item size. */
export const RICH_TEXT_LIMITS = { blocks: 200, inlinesPerParagraph: 500, textLength: 10_000, listItems: 200 } as const;

/** One complete `{{smart value}}` token, e.g. `{{event.url}}`. */
export const SMART_TOKEN = /^\{\{\s*[^{}\s][^{}]*\}\}$/;

/** True for an absolute URL whose scheme the renderer keeps (http, https, mailto). */
export function isAllowedUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  return (LINK_PROTOCOLS as readonly string[]).includes(new URL(value).protocol);
}

const simpleMark = (type: 'bold' | 'italic' | 'strike' | 'underline') => z.strictObject({ type: z.literal(type) });

const linkMark = lazy(() => z.strictObject({
  type: z.literal('link'),
  attrs: z.strictObject({
    href: z
      .string()
      .min(1)
      .max(2_048)
      .refine((href) => SMART_TOKEN.test(href) || isAllowedUrl(href), 'must be an http(s) or mailto URL, or one complete {{smart value}} token')
      .meta({ description: 'An http, https or mailto URL, or exactly one `{{smart value}}` token replaced at render time.' }),
  }),
}));

const textStyleMark = lazy(() => z.strictObject({
  type: z.literal('textStyle'),
  attrs: z.strictObject({
    fontSize: z.union(FONT_SIZES.map((size) => z.literal(size))).meta({ description: `One of ${FONT_SIZES.join(', ')}.` }),
  }),
}));

export const markSchema = lazy(() => z
  .discriminatedUnion('type', [simpleMark('bold'), simpleMark('italic'), simpleMark('strike'), simpleMark('underline'), linkMark, textStyleMark])
  .meta({ id: 'RichTextMark' }));

const marks = lazy(() => z.array(markSchema).max(10).optional());

export const textNodeSchema = lazy(() => z.strictObject({
  type: z.literal('text'),
  text: z.string().min(1).max(RICH_TEXT_LIMITS.textLength),
  marks,
}));
const hardBreakSchema = lazy(() => z.strictObject({ type: z.literal('hardBreak'), marks }));
const smartValueSchema = lazy(() => z.strictObject({
  type: z.literal('smartValue'),
  attrs: z.strictObject({ key: z.string().min(1).max(200).meta({ description: 'Context key, e.g. `event.name`.' }) }),
  marks,
}));

export const inlineSchema = lazy(() => z.discriminatedUnion('type', [textNodeSchema, hardBreakSchema, smartValueSchema]));

function buildTree(variant: 'request' | 'response') {
  const suffix = variant === 'request' ? 'Request' : 'Response';
  const align = z.enum(TEXT_ALIGNS);
  const paragraph = z.strictObject({
    type: z.literal('paragraph'),
    attrs: variant === 'request'
      ? z.strictObject({ textAlign: align.default('left') }).default({ textAlign: 'left' })
      : z.strictObject({ textAlign: align }),
    content: variant === 'request'
      ? z.array(inlineSchema).max(RICH_TEXT_LIMITS.inlinesPerParagraph).default([])
      : z.array(inlineSchema),
  }).meta({ id: `RichTextParagraph${suffix}` });
  const listItem = z.strictObject({
    type: z.literal('listItem'),
    content: z.array(paragraph).length(1, 'a list item holds exactly one paragraph'),
  });
  const items = z.array(listItem).min(1, 'a list needs at least one item').max(RICH_TEXT_LIMITS.listItems);
  const start = z.number().int().min(1).max(MAX_SAFE);
  const bulletList = z.strictObject({ type: z.literal('bulletList'), content: items });
  const orderedList = z.strictObject({
    type: z.literal('orderedList'),
    attrs: variant === 'request'
      ? z.strictObject({ start: start.default(1) }).default({ start: 1 })
      : z.strictObject({ start }),
    content: items,
  });
  const block = z.discriminatedUnion('type', [paragraph, bulletList, orderedList]);
  return z.array(block).max(RICH_TEXT_LIMITS.blocks).meta({
    id: `RichText${suffix}`,
    description: variant === 'request'
      ? 'Rich-text blocks: paragraphs, bullet lists and ordered lists. `textAlign` defaults to `left`, `orderedList.attrs.start` to 1.'
      : 'Rich-text blocks with every defaulted attribute filled in.',
  });
}

/** Request variant: defaults optional, filled in by parsing. */
export const richTextRequestSchema = lazy(() => buildTree('request'));
/** Response variant: `paragraph.attrs.textAlign` and `orderedList.attrs.start` always present. */
export const richTextResponseSchema = lazy(() => buildTree('response'));

export type RichText = z.output<typeof richTextResponseSchema>;
export type RichTextBlock = RichText[number];
export type Inline = z.output<typeof inlineSchema>;
export type Mark = z.output<typeof markSchema>;
