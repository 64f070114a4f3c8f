import type { PublicForm } from '../../shared/forms/public-form.js';
import { visibleElementIds } from '../../shared/forms/logic-evaluator.js';
import { apiBaseOf, h, jsonOf, uniqueId } from './dom.js';
import { renderField, type Field, type WidgetElement } from './form-fields.js';
import { BASE_CSS, FORM_CSS } from './styles.js';

interface ErrorBody {
  error?: { code?: string; message?: string; details?: { path?: string; message?: string }[] };
}

/** A layout column: its box and the field in it (one element per column, spec layout rule 1). */
interface Column {
  box: HTMLElement;
  field: Field;
}

/** The buyer section (`attendee` undefined) or one attendee's instance of the attendee rows. */
interface Section {
  attendee: number | undefined;
  rows: { box: HTMLElement; columns: Column[] }[];
  fields: Map<string, Field>;
}

const MAX_ATTENDEES = 50;

function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `answers.<id>` -> buyer field, `attendees[i].<id>` -> attendee i's field; anything else is form-wide. */
function targetOf(path: string): { attendee: number | undefined; elementId: string } | undefined {
  const buyer = /^answers\.([^.]+)$/.exec(path);
  if (buyer) return { attendee: undefined, elementId: buyer[1] as string };
  const attendee = /^attendees\[(\d+)\]\.([^.]+)$/.exec(path);
  return attendee ? { attendee: Number(attendee[1]), elementId: attendee[2] as string } : undefined;
}

/**
 * `<boxoffice-form form-id="ID" api-base="URL" attendees="2">`: renders an active form (layout rows
 * and columns, every element type), shows and hides elements with THE logic evaluator of the server as
 * the respondent answers, posts to POST /forms/{formId}/responses, shows each 422 detail beside its
 * field, and dispatches `boxoffice:submitted` with the response id. `attendees` is the number of
 * tickets on an order form (one attendee section each; default 1).
 */
export function defineFormElement(scriptBase: string): void {
  class BoxofficeForm extends HTMLElement {
    static get observedAttributes(): string[] {
      return ['form-id', 'api-base', 'attendees'];
    }

    private readonly shadow = this.attachShadow({ mode: 'open' });
    private readonly root = h('div', { class: 'root', part: 'root' });
    private form: PublicForm | undefined;
    private sections: Section[] = [];
    private summary: HTMLElement = h('div');
    private submitButton: HTMLButtonElement | undefined;
    private sending = false;
    private generation = 0;
    private loadScheduled = false;
    private idempotency: { body: string; key: string } | undefined;

    constructor() {
      super();
      this.shadow.append(h('style', {}, BASE_CSS + FORM_CSS), this.root);
    }

    connectedCallback(): void {
      this.scheduleLoad();
    }

    attributeChangedCallback(_name: string, previous: string | null, next: string | null): void {
      if (this.isConnected && previous !== next) this.scheduleLoad();
    }

    /** One load per task, however many attributes changed (an upgrade reports each attribute, then connects). */
    private scheduleLoad(): void {
      if (this.loadScheduled) return;
      this.loadScheduled = true;
      queueMicrotask(() => {
        this.loadScheduled = false;
        if (this.isConnected) void this.load();
      });
    }

    private showMessage(text: string, error: boolean): void {
      this.root.replaceChildren(h('p', { class: `message${error ? ' error' : ''}`, role: error ? 'alert' : 'status', part: 'message' }, text));
    }

    private async load(): Promise<void> {
      this.generation += 1;
      const generation = this.generation;
      const formId = this.getAttribute('form-id');
      if (!formId) return this.showMessage('This form widget needs a form-id attribute.', true);
      this.root.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Loading the form…'));
      let response: Response | undefined;
      let body: { data?: PublicForm } | undefined;
      try {
        response = await fetch(`${apiBaseOf(this, scriptBase)}/forms/${encodeURIComponent(formId)}`);
        body = (await jsonOf(response)) as typeof body;
      } catch {
        response = undefined;
      }
      if (generation !== this.generation) return;
      if (response?.status === 404) return this.showMessage('This form is not available: it may be closed, or the link is wrong.', true);
      if (!response?.ok || !body?.data) return this.showMessage('The form could not be loaded. Please try again later.', true);
      this.form = body.data;
      this.render(body.data);
    }

    private attendeeCount(): number {
      const wanted = Number.parseInt(this.getAttribute('attendees') ?? '1', 10);
      return Number.isFinite(wanted) ? Math.min(MAX_ATTENDEES, Math.max(1, wanted)) : 1;
    }

    private renderSection(form: PublicForm, rows: PublicForm['rows'], attendee: number | undefined, prefix: string): Section {
      const section: Section = { attendee, rows: [], fields: new Map() };
      for (const row of rows) {
        const columns = row.columns.flatMap((column) => {
          const element = form.elements[column.elementIndex] as WidgetElement | undefined;
          if (!element?.id) return [];
          const field = renderField(element, `${prefix}-${column.elementIndex}`);
          section.fields.set(element.id, field);
          const box = h('div', { class: 'col' }, field.box);
          box.style.setProperty('--w', String(column.widthFraction));
          return [{ box, field }];
        });
        section.rows.push({ box: h('div', { class: 'row' }, ...columns.map((column) => column.box)), columns });
      }
      return section;
    }

    private render(form: PublicForm): void {
      const prefix = uniqueId('bo-form');
      const titleId = `${prefix}-title`;
      const attendeeStart = form.type === 'order' ? form.attendeeRowsStart : form.rows.length;
      const buyer = this.renderSection(form, form.rows.slice(0, attendeeStart), undefined, `${prefix}-b`);
      const attendeeRows = form.rows.slice(attendeeStart);
      const attendees = attendeeRows.length === 0 ? [] : Array.from({ length: this.attendeeCount() }, (_unused, index) =>
        this.renderSection(form, attendeeRows, index, `${prefix}-a${index}`));
      this.sections = [buyer, ...attendees];
      this.summary = h('div', { class: 'summary', role: 'alert', tabindex: -1, part: 'summary' });
      this.submitButton = h('button', { type: 'submit', part: 'submit' }, form.submitButtonText);
      const align = form.submitButtonWidth === 'fill' ? 'fill' : form.submitButtonAlign === 'center' ? 'center' : '';
      const element = h('form', { novalidate: true, part: 'form', ...(form.nameHidden ? { 'aria-label': form.name } : { 'aria-labelledby': titleId }) },
        form.nameHidden ? null : h('h2', { id: titleId }, form.name),
        this.summary,
        ...buyer.rows.map((row) => row.box),
        ...attendees.map((section) => h('fieldset', { class: 'attendee', part: 'attendee' },
          h('legend', {}, `Attendee ${(section.attendee ?? 0) + 1}`), ...section.rows.map((row) => row.box))),
        h('div', { class: `actions ${align}` }, this.submitButton));
      element.addEventListener('input', () => this.applyLogic());
      element.addEventListener('change', () => this.applyLogic());
      element.addEventListener('submit', (event) => {
        event.preventDefault();
        void this.submit();
      });
      this.root.replaceChildren(element);
      this.applyLogic();
    }

    /** Answers of one section; `visibleOnly` for the submission (hidden elements take no answer). */
    private answersOf(section: Section, visibleOnly: boolean): Record<string, unknown> {
      const answers: Record<string, unknown> = {};
      for (const [id, field] of section.fields) {
        if (visibleOnly && field.box.hidden) continue;
        const value = field.read();
        if (value !== undefined) answers[id] = value;
      }
      return answers;
    }

    /** Shows exactly the elements the evaluator finds visible for the current answers, per section. */
    private applyLogic(): void {
      const form = this.form;
      const buyer = this.sections[0];
      if (!form || !buyer) return;
      const answers = this.answersOf(buyer, false);
      for (const section of this.sections) {
        const visible = visibleElementIds(form, section.attendee === undefined ? { answers } : { answers, attendee: this.answersOf(section, false) });
        for (const row of section.rows) {
          for (const column of row.columns) {
            const shown = visible.has(column.field.element.id ?? '');
            column.field.box.hidden = !shown;
            column.box.hidden = !shown;
          }
          row.box.hidden = row.columns.every((column) => column.box.hidden);
        }
      }
    }

    private clearErrors(): void {
      this.summary.replaceChildren();
      for (const section of this.sections) {
        for (const field of section.fields.values()) {
          field.error.textContent = '';
          for (const control of field.controls) control.removeAttribute('aria-invalid');
        }
      }
    }

    private showErrors(details: { path?: string; message?: string }[], message: string): void {
      const listed: HTMLElement[] = [];
      for (const detail of details) {
        const target = targetOf(detail.path ?? '');
        const section = target && this.sections.find((candidate) => candidate.attendee === target.attendee);
        const field = target && section?.fields.get(target.elementId);
        const text = field ? `${field.element.prompt} ${detail.message ?? 'is invalid'}.` : (detail.message ?? message);
        const where = section?.attendee === undefined ? '' : `Attendee ${section.attendee + 1}: `;
        if (field) {
          field.error.textContent = field.error.textContent ? `${field.error.textContent} ${text}` : text;
          for (const control of field.controls) control.setAttribute('aria-invalid', 'true');
        }
        listed.push(h('li', {}, `${where}${text}`));
      }
      this.summary.replaceChildren(h('p', {}, h('strong', {}, details.length > 1 ? `${details.length} answers need attention.` : message)), h('ul', {}, ...listed));
      // Focus goes to the first invalid field in reading order (sections and their fields are in layout order).
      const first = this.sections.flatMap((section) => [...section.fields.values()])
        .find((field) => field.controls.some((control) => control.getAttribute('aria-invalid') === 'true'));
      (first?.focusTarget ?? this.summary).focus();
    }

    private async submit(): Promise<void> {
      const form = this.form;
      const [buyer, ...attendees] = this.sections;
      if (!form || !buyer || this.sending) return;
      this.clearErrors();
      const payload = { answers: this.answersOf(buyer, true), ...(attendees.length > 0 ? { attendees: attendees.map((section) => this.answersOf(section, true)) } : {}) };
      const body = JSON.stringify(payload);
      // The same answers retried (e.g. after a network error) reuse their key: the server stores them once.
      if (this.idempotency?.body !== body) this.idempotency = { body, key: randomKey() };
      this.setSending(true);
      let response: Response | undefined;
      let result: (ErrorBody & { data?: { id: string; contactId?: string } }) | undefined;
      try {
        response = await fetch(`${apiBaseOf(this, scriptBase)}/forms/${encodeURIComponent(form.id)}/responses`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': this.idempotency.key },
          body,
        });
        result = (await jsonOf(response)) as typeof result;
      } catch {
        response = undefined;
      }
      this.setSending(false);
      if (response?.status === 201 && result?.data) return this.done(result.data);
      if (response?.status === 422) return this.showErrors(result?.error?.details ?? [], result?.error?.message ?? 'Some answers need attention.');
      const text = response?.status === 404 ? 'This form is no longer accepting responses.'
        : response?.status === 429 ? 'Too many submissions right now: please try again in a moment.'
          : 'Your response could not be sent. Please try again.';
      this.summary.replaceChildren(h('p', {}, text));
      this.summary.focus();
    }

    private setSending(sending: boolean): void {
      this.sending = sending;
      if (!this.submitButton) return;
      this.submitButton.disabled = sending;
      if (sending) this.setAttribute('aria-busy', 'true');
      else this.removeAttribute('aria-busy');
    }

    private done(data: { id: string; contactId?: string }): void {
      const thanks = h('div', { class: 'done', role: 'status', tabindex: -1, part: 'done' }, h('p', {}, h('strong', {}, 'Thank you!'), ' Your response was sent.'));
      this.root.replaceChildren(thanks);
      thanks.focus();
      this.dispatchEvent(new CustomEvent('boxoffice:submitted', { detail: { id: data.id, ...(data.contactId ? { contactId: data.contactId } : {}) }, bubbles: true, composed: true }));
    }
  }
  if (!customElements.get('boxoffice-form')) customElements.define('boxoffice-form', BoxofficeForm);
}
