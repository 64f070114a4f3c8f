import { isAllowedUrl, type Inline, type Mark, type RichText, type RichTextBlock } from './rich-text-schema.js';

/**
 * Values for `{{smart value}}` tokens and `smartValue` nodes: flat keys (`{'event.name': 'Gala'}`)
 * or nested objects (`{event: {name: 'Gala'}}`). Missing values render as an empty string.
 */
export type SmartValueContext = Readonly<Record<string, unknown>>;

const TOKEN = /\{\{\s*([^{}]+?)\s*\}\}/g;
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string);
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** The value of one smart-value key: the flat key first, then the dotted path into nested objects. */
export function lookupSmartValue(key: string, context: SmartValueContext): string {
  const trimmed = key.trim();
  if (Object.hasOwn(context, trimmed)) return scalar(context[trimmed]) ?? '';
  let current: unknown = context;
  for (const segment of trimmed.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, segment)) return '';
    current = (current as Record<string, unknown>)[segment];
  }
  return scalar(current) ?? '';
}

/** Replaces every `{{key}}` token of a string with its context value. */
export function substituteSmartValues(template: string, context: SmartValueContext): string {
  return template.replace(TOKEN, (_token, key: string) => lookupSmartValue(key, context));
}

/**
 * The href a link mark renders with: tokens replaced, then validated as an http, https or mailto
 * URL. `undefined` means the link is dropped (its text stays), e.g. `javascript:` after substitution.
 */
export function resolveLinkHref(href: string, context: SmartValueContext): string | undefined {
  const resolved = substituteSmartValues(href, context).trim();
  return isAllowedUrl(resolved) ? new URL(resolved).href : undefined;
}

function inlineText(node: Inline, context: SmartValueContext): string {
  if (node.type === 'text') return node.text;
  if (node.type === 'smartValue') return lookupSmartValue(node.attrs.key, context);
  return '\n';
}

function openTag(mark: Exclude<Mark, { type: 'link' }>): [string, string] {
  switch (mark.type) {
    case 'bold': return ['<strong>', '</strong>'];
    case 'italic': return ['<em>', '</em>'];
    case 'strike': return ['<s>', '</s>'];
    case 'underline': return ['<u>', '</u>'];
    case 'textStyle': return [`<span style="font-size: ${mark.attrs.fontSize}px">`, '</span>'];
  }
}

function inlineHtml(node: Inline, context: SmartValueContext): string {
  if (node.type === 'hardBreak') return '<br>';
  let html = escapeHtml(inlineText(node, context));
  if (html === '') return '';
  let href: string | undefined;
  for (const mark of node.marks ?? []) {
    if (mark.type === 'link') {
      href = resolveLinkHref(mark.attrs.href, context);
      continue;
    }
    const [open, close] = openTag(mark);
    html = `${open}${html}${close}`;
  }
  // The link wraps every other mark so that one anchor covers the whole styled run.
  return href === undefined ? html : `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${html}</a>`;
}

type Paragraph = Extract<RichTextBlock, { type: 'paragraph' }>;

function paragraphHtml(paragraph: Paragraph, context: SmartValueContext): string {
  const align = paragraph.attrs.textAlign;
  const open = align === 'left' ? '<p>' : `<p style="text-align: ${align}">`;
  return `${open}${paragraph.content.map((node) => inlineHtml(node, context)).join('')}</p>`;
}

function blockHtml(block: RichTextBlock, context: SmartValueContext): string {
  if (block.type === 'paragraph') return paragraphHtml(block, context);
  const items = block.content.map((item) => `<li>${item.content.map((paragraph) => paragraphHtml(paragraph, context)).join('')}</li>`).join('');
  if (block.type === 'bulletList') return `<ul>${items}</ul>`;
  return block.attrs.start === 1 ? `<ol>${items}</ol>` : `<ol start="${block.attrs.start}">${items}</ol>`;
}

/** Renders a (response-variant) rich-text tree to HTML: every text and value escaped, links validated. */
export function renderHtml(blocks: RichText, context: SmartValueContext = {}): string {
  return blocks.map((block) => blockHtml(block, context)).join('');
}

function inlinePlain(node: Inline, context: SmartValueContext): string {
  const text = inlineText(node, context);
  const link = node.marks?.find((mark) => mark.type === 'link');
  if (!link || text === '\n') return text;
  const href = resolveLinkHref(link.attrs.href, context);
  return href === undefined || href === text || `${text}/` === href ? text : `${text} (${href})`;
}

function paragraphPlain(paragraph: Paragraph, context: SmartValueContext): string {
  return paragraph.content.map((node) => inlinePlain(node, context)).join('');
}

/**
 * Renders a rich-text tree to plain text: paragraphs separated by a blank line, `- ` bullets,
 * `N. ` numbered items from `start`, hard breaks as newlines, valid links as `text (url)`.
 */
export function renderPlainText(blocks: RichText, context: SmartValueContext = {}): string {
  return blocks.map((block) => {
    if (block.type === 'paragraph') return paragraphPlain(block, context);
    return block.content.map((item, index) => {
      const bullet = block.type === 'bulletList' ? '- ' : `${BigInt(block.attrs.start) + BigInt(index)}. `;
      return bullet + item.content.map((paragraph) => paragraphPlain(paragraph, context)).join('');
    }).join('\n');
  }).join('\n\n');
}
