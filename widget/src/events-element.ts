import { apiBaseOf, h, jsonOf, uniqueId } from './dom.js';
import { describeLocation, eventImage, eventLink, formatDateRange, formatPriceRange, type ListedEvent } from './format.js';
import { BASE_CSS, EVENTS_CSS } from './styles.js';

interface ListingPage {
  data?: ListedEvent[];
  hasMore?: boolean;
  error?: string;
  message?: string;
}

/** Query attributes passed through to GET /partner/events. */
const QUERY_ATTRIBUTES = ['limit', 'filter', 'sort', 'direction'] as const;

/** What a viewer reads when the listing answers an error (the API's own message stays in the console). */
function problemText(status: number, body: ListingPage | undefined): string {
  if (body?.error === 'NO_EVENTS_FOUND') return 'No events to show right now.';
  if (body?.error === 'PARTNER_NOT_FOUND') return 'These events could not be found: the partner code is unknown.';
  if (status === 400) return `These events could not be listed: ${body?.message ?? 'the widget settings are invalid.'}`;
  if (status === 429) return 'Too many requests: please try again in a moment.';
  return 'The events could not be loaded. Please try again later.';
}

/**
 * `<boxoffice-events referral-code="CODE" api-base="URL" limit="20" filter="upcoming" sort="start">`: a
 * partner's public events, page by page ("Load more" while the API says `hasMore`).
 */
export function defineEventsElement(scriptBase: string): void {
  class BoxofficeEvents extends HTMLElement {
    static get observedAttributes(): string[] {
      return ['referral-code', 'api-base', 'link-template', ...QUERY_ATTRIBUTES];
    }

    private readonly shadow = this.attachShadow({ mode: 'open' });
    private readonly list = h('ul', { part: 'list', role: 'list' });
    private readonly status = h('p', { class: 'vh', role: 'status' });
    private readonly problem = h('div', { role: 'alert' });
    private readonly more = h('div', { class: 'more' });
    private page = 0;
    private loading = false;
    private generation = 0;
    private reloadScheduled = false;

    constructor() {
      super();
      const headingId = uniqueId('bo-events');
      this.shadow.append(
        h('style', {}, BASE_CSS + EVENTS_CSS),
        h('section', { class: 'root', part: 'root', 'aria-labelledby': headingId },
          h('h2', { id: headingId, class: 'vh' }, 'Events'), this.status, this.problem, this.list, this.more),
      );
    }

    connectedCallback(): void {
      this.scheduleReload();
    }

    attributeChangedCallback(_name: string, previous: string | null, next: string | null): void {
      if (this.isConnected && previous !== next) this.scheduleReload();
    }

    /**
     * One load per task, however many attributes changed: an element upgraded after the page parsed
     * gets one attributeChangedCallback per attribute, then connectedCallback.
     */
    private scheduleReload(): void {
      if (this.reloadScheduled) return;
      this.reloadScheduled = true;
      queueMicrotask(() => {
        this.reloadScheduled = false;
        if (this.isConnected) this.reload();
      });
    }

    private reload(): void {
      this.generation += 1;
      this.page = 0;
      this.list.replaceChildren();
      this.problem.replaceChildren();
      this.more.replaceChildren();
      void this.load(this.generation);
    }

    private async load(generation: number): Promise<void> {
      const code = this.getAttribute('referral-code');
      if (!code) {
        this.problem.replaceChildren(h('p', { class: 'message error' }, 'This events widget needs a referral-code attribute.'));
        return;
      }
      // Resolved against the page, so a relative `api-base` ("/api") works too.
      const url = new URL(`${apiBaseOf(this, scriptBase)}/partner/events`, location.href);
      url.searchParams.set('referral_code', code);
      for (const name of QUERY_ATTRIBUTES) {
        const value = this.getAttribute(name);
        if (value) url.searchParams.set(name, value);
      }
      url.searchParams.set('page', String(this.page));
      this.loading = true;
      this.renderMore(true);
      this.setAttribute('aria-busy', 'true');
      let response: Response | undefined;
      let body: ListingPage | undefined;
      try {
        response = await fetch(url);
        body = (await jsonOf(response)) as ListingPage | undefined;
      } catch {
        response = undefined;
      }
      if (generation !== this.generation) return;
      this.loading = false;
      this.removeAttribute('aria-busy');
      if (!response?.ok || !Array.isArray(body?.data)) {
        const text = problemText(response?.status ?? 0, body);
        // An empty later page is not an error for the viewer: the list simply ends.
        if (this.page === 0 || body?.error !== 'NO_EVENTS_FOUND') this.problem.replaceChildren(h('p', { class: 'message error', part: 'message' }, text));
        this.more.replaceChildren();
        return;
      }
      const added = body.data.map((event) => this.renderEvent(event));
      this.list.append(...added);
      this.status.textContent = `${this.list.children.length} events shown${body.hasMore ? '; more are available' : ''}.`;
      if (this.page > 0) added[0]?.querySelector<HTMLElement>('h3')?.focus();
      this.page += 1;
      if (body.hasMore) this.renderMore(false);
      else this.more.replaceChildren();
    }

    private renderMore(busy: boolean): void {
      if (this.page === 0) return;
      const button = h('button', { type: 'button', part: 'load-more', ...(busy ? { disabled: true } : {}) }, busy ? 'Loading…' : 'Load more events');
      button.addEventListener('click', () => {
        if (!this.loading) void this.load(this.generation);
      });
      this.more.replaceChildren(button);
    }

    private renderEvent(event: ListedEvent): HTMLLIElement {
      const link = eventLink(event, this.getAttribute('link-template'));
      const image = eventImage(event);
      const place = describeLocation(event);
      const price = formatPriceRange(event);
      // The heading takes focus after "Load more", so keyboard and screen-reader users land on the new events.
      const title = h('h3', { tabindex: -1 }, link ? h('a', { href: link, part: 'link' }, event.name) : event.name);
      return h('li', {},
        h('article', { class: 'card', part: 'card' },
          image ? h('img', { src: image, alt: '', loading: 'lazy', part: 'image' }) : null,
          h('div', { class: 'body' },
            title,
            h('p', {}, h('time', { datetime: event.start }, formatDateRange(event.start, event.end))),
            place ? h('p', { class: 'muted' }, place) : null,
            event.isCancelled ? h('p', { class: 'error' }, 'Cancelled') : null,
            price ? h('p', { class: 'price' }, h('span', { class: 'vh' }, 'Price: '), price) : null)));
    }
  }
  if (!customElements.get('boxoffice-events')) customElements.define('boxoffice-events', BoxofficeEvents);
}
