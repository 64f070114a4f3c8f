/** A tiny element builder: attributes are set as attributes and text is appended as text, never as HTML. */

type AttributeValue = string | number | boolean | undefined | null;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, AttributeValue> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** Ids unique within the page, so that several widgets never share one (labels, aria-describedby). */
let counter = 0;
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Adds ids to an element's `aria-describedby` list (help, hint and error texts). */
export function describe(target: Element, ...ids: string[]): void {
  const current = (target.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  target.setAttribute('aria-describedby', [...new Set([...current, ...ids])].join(' '));
}

/** Reads a response body as JSON, or undefined when it is not JSON (e.g. an HTML error page). */
export async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The API root: the element's `api-base`, else where this script was loaded from. */
export function apiBaseOf(element: Element, scriptBase: string): string {
  const base = element.getAttribute('api-base') || scriptBase;
  return base.replace(/\/+$/, '');
}
