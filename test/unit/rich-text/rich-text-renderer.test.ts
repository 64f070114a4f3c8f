import { describe, expect, it } from 'vitest';
import {
  escapeHtml, lookupSmartValue, renderHtml, renderPlainText, resolveLinkHref, substituteSmartValues,
} from '../../../shared/rich-text/rich-text-renderer.js';
import { bullets, hardBreak, item, link, ordered, paragraph, smart, text } from './rich-text-factories.js';

const context = { 'event.name': 'Summer <Gala>', event: { url: 'https://tickets.example/gala', city: 'Montréal' }, bad: 'javascript:alert(1)', count: 3 };

describe('smart values', () => {
  it('reads flat keys first, then dotted paths into nested objects', () => {
    expect(lookupSmartValue('event.name', context)).toBe('Summer <Gala>');
    expect(lookupSmartValue('event.url', context)).toBe('https://tickets.example/gala');
    expect(lookupSmartValue('count', context)).toBe('3');
  });

  it('renders missing or non-scalar values as an empty string', () => {
    expect(lookupSmartValue('missing.key', context)).toBe('');
    expect(lookupSmartValue('event', context)).toBe('');
    expect(lookupSmartValue('constructor', context)).toBe('');
  });

  it('replaces every token of a template', () => {
    expect(substituteSmartValues('{{ event.city }} / {{count}}', context)).toBe('Montréal / 3');
  });
});

describe('resolveLinkHref', () => {
  it('substitutes the token and keeps http, https and mailto URLs', () => {
    expect(resolveLinkHref('{{event.url}}', context)).toBe('https://tickets.example/gala');
    expect(resolveLinkHref('mailto:host@example.com', context)).toBe('mailto:host@example.com');
  });

  it('drops links that are invalid after substitution', () => {
    expect(resolveLinkHref('{{bad}}', context)).toBeUndefined();
    expect(resolveLinkHref('{{missing}}', context)).toBeUndefined();
    expect(resolveLinkHref('ftp://files.example', context)).toBeUndefined();
  });
});

describe('renderHtml', () => {
  it('renders paragraphs, alignment, marks and hard breaks', () => {
    // Prepare
    const blocks = [paragraph([text('Bold', { type: 'bold' }, { type: 'italic' }), hardBreak(), text('Big', { type: 'textStyle', attrs: { fontSize: 24 } })], 'center')];
    // Act
    const html = renderHtml(blocks);
    // Assess
    expect(html).toBe('<p style="text-align: center"><em><strong>Bold</strong></em><br><span style="font-size: 24px">Big</span></p>');
  });

  it('renders strike and underline', () => {
    expect(renderHtml([paragraph([text('x', { type: 'strike' }, { type: 'underline' })])])).toBe('<p><u><s>x</s></u></p>');
  });

  it('renders bullet and ordered lists, with start only when not 1', () => {
    expect(renderHtml([bullets(item(text('a')), item(text('b')))])).toBe('<ul><li><p>a</p></li><li><p>b</p></li></ul>');
    expect(renderHtml([ordered(1, item(text('a')))])).toBe('<ol><li><p>a</p></li></ol>');
    expect(renderHtml([ordered(4, item(text('a')))])).toBe('<ol start="4"><li><p>a</p></li></ol>');
  });

  it('replaces smart values from the context, escaped', () => {
    expect(renderHtml([paragraph([text('Welcome to '), smart('event.name', { type: 'bold' })])], context))
      .toBe('<p>Welcome to <strong>Summer &lt;Gala&gt;</strong></p>');
  });

  it('escapes text so that markup in content never becomes markup', () => {
    const html = renderHtml([paragraph([text('<script>alert("x")</script> & \'q\'')])]);
    expect(html).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</p>');
    expect(html).not.toContain('<script>');
  });

  it('wraps the styled run in one anchor with the substituted, escaped href', () => {
    expect(renderHtml([paragraph([text('Tickets', { type: 'bold' }, link('{{event.url}}'))])], context))
      .toBe('<p><a href="https://tickets.example/gala" rel="noopener noreferrer nofollow"><strong>Tickets</strong></a></p>');
  });

  it('drops a link that is invalid after substitution but keeps its text', () => {
    expect(renderHtml([paragraph([text('Click', link('{{bad}}'))])], context)).toBe('<p>Click</p>');
  });

  it('never lets a substituted href break out of the attribute', () => {
    const html = renderHtml([paragraph([text('x', link('{{evil}}'))])], { evil: 'https://a.example/"><script>alert(1)</script>' });
    expect(html).not.toContain('<script>');
    expect(html).toMatch(/^<p><a href="https:\/\/a\.example\/%22%3E%3Cscript%3E[^"<>]*" rel="noopener noreferrer nofollow">x<\/a><\/p>$/);
  });

  it('renders an empty tree as an empty string', () => {
    expect(renderHtml([])).toBe('');
  });
});

describe('renderPlainText', () => {
  it('separates blocks with blank lines and renders lists, breaks and values', () => {
    // Prepare
    const blocks = [
      paragraph([text('Hello'), hardBreak(), smart('event.city')]),
      bullets(item(text('one')), item(text('two'))),
      ordered(9, item(text('nine')), item(text('ten'))),
    ];
    // Act
    const plain = renderPlainText(blocks, context);
    // Assess
    expect(plain).toBe('Hello\nMontréal\n\n- one\n- two\n\n9. nine\n10. ten');
  });

  it('appends valid link targets and leaves invalid ones out', () => {
    expect(renderPlainText([paragraph([text('Tickets', link('{{event.url}}')), text(' / '), text('Bad', link('{{bad}}'))])], context))
      .toBe('Tickets (https://tickets.example/gala) / Bad');
  });

  it('does not escape plain text', () => {
    expect(renderPlainText([paragraph([text('a < b & c')])])).toBe('a < b & c');
  });

  it('numbers items exactly even at the largest start', () => {
    expect(renderPlainText([ordered(9_007_199_254_740_991, item(text('a')), item(text('b')))])).toBe('9007199254740991. a\n9007199254740992. b');
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
