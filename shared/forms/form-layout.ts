import type { ErrorDetail } from '../errors.js';
import type { Form, FormRow } from './form-model.js';

/** Fractions are floats; a row "sums to 1" within this tolerance (API.md). */
export const WIDTH_TOLERANCE = 1e-9;

export type Section = 'buyer' | 'attendee';

/** The section an element belongs to on an order form. */
export function sectionOf(form: Pick<Form, 'type'>, element: { askAllAttendees?: boolean }): Section {
  return form.type === 'order' && element.askAllAttendees === true ? 'attendee' : 'buyer';
}

/** Standalone forms have no attendee section: their `attendeeRowsStart` must be 0 (create and layout PUT alike). */
export function standaloneAttendeeRowsProblem(form: Pick<Form, 'type'> & { attendeeRowsStart?: number | undefined }): ErrorDetail | undefined {
  return form.type === 'standalone' && (form.attendeeRowsStart ?? 0) !== 0
    ? { path: 'attendeeRowsStart', message: 'must be 0: standalone forms have no attendee section' }
    : undefined;
}

/**
 * Layout rules 1-2 and the section rule: every element sits in exactly one column, each row's
 * fractions sum to 1, and on order forms attendee elements sit at or after `attendeeRowsStart`,
 * the others before it. Standalone forms have no attendee section: their `attendeeRowsStart` is 0.
 */
export function validateLayout(form: Pick<Form, 'type' | 'rows' | 'attendeeRowsStart' | 'elements'>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const placedIn = new Map<number, string>();
  const standalone = standaloneAttendeeRowsProblem(form);
  if (standalone) {
    details.push(standalone);
  } else if (form.attendeeRowsStart > form.rows.length) {
    details.push({ path: 'attendeeRowsStart', message: `must be between 0 and the number of rows (${form.rows.length})` });
  }
  form.rows.forEach((row, r) => {
    if (row.columns.length === 0) details.push({ path: `rows[${r}].columns`, message: 'a row needs at least one column' });
    const sum = row.columns.reduce((total, column) => total + column.widthFraction, 0);
    if (row.columns.length > 0 && Math.abs(sum - 1) > WIDTH_TOLERANCE) {
      details.push({ path: `rows[${r}].columns`, message: `widthFraction values must sum to 1 (got ${sum})` });
    }
    row.columns.forEach((column, c) => {
      const path = `rows[${r}].columns[${c}].elementIndex`;
      const element = form.elements[column.elementIndex];
      if (!element) {
        details.push({ path, message: `no element at index ${column.elementIndex}` });
        return;
      }
      const earlier = placedIn.get(column.elementIndex);
      if (earlier) {
        details.push({ path, message: `element ${column.elementIndex} is already placed at ${earlier}` });
        return;
      }
      placedIn.set(column.elementIndex, path);
      if (form.type === 'order') {
        const inAttendeeRows = r >= form.attendeeRowsStart;
        if (element.askAllAttendees === true && !inAttendeeRows) {
          details.push({ path, message: `element ${column.elementIndex} asks all attendees, so it must be in a row at or after attendeeRowsStart` });
        } else if (element.askAllAttendees !== true && inAttendeeRows) {
          details.push({ path, message: `element ${column.elementIndex} is a buyer element, so it must be in a row before attendeeRowsStart` });
        }
      }
    });
  });
  form.elements.forEach((_element, index) => {
    if (!placedIn.has(index)) details.push({ path: `elements[${index}]`, message: `element ${index} is in no column of rows` });
  });
  return details;
}

/** Row index and column index of an element, if placed. */
export function locate(rows: readonly FormRow[], elementIndex: number): { row: number; column: number } | undefined {
  for (let row = 0; row < rows.length; row += 1) {
    const column = (rows[row] as FormRow).columns.findIndex((candidate) => candidate.elementIndex === elementIndex);
    if (column >= 0) return { row, column };
  }
  return undefined;
}

/**
 * Takes an element's column out of the layout. The row's remaining columns are rescaled so their
 * fractions still sum to 1; a row left empty is removed, and `attendeeRowsStart` moves up when the
 * removed row was a buyer row.
 */
export function removeFromLayout(rows: readonly FormRow[], attendeeRowsStart: number, elementIndex: number): { rows: FormRow[]; attendeeRowsStart: number } {
  const next: FormRow[] = [];
  let start = attendeeRowsStart;
  rows.forEach((row, r) => {
    const kept = row.columns.filter((column) => column.elementIndex !== elementIndex);
    if (kept.length === row.columns.length) {
      next.push(row);
    } else if (kept.length === 0) {
      if (r < attendeeRowsStart) start -= 1;
    } else {
      next.push({ columns: rescale(kept) });
    }
  });
  return { rows: next, attendeeRowsStart: start };
}

function rescale(columns: FormRow['columns']): FormRow['columns'] {
  const sum = columns.reduce((total, column) => total + column.widthFraction, 0);
  const scaled = columns.map((column) => ({ ...column, widthFraction: column.widthFraction / sum }));
  // Give the rounding residue to the last column so the row sums to 1 as exactly as floats allow.
  const residue = 1 - scaled.reduce((total, column) => total + column.widthFraction, 0);
  const last = scaled[scaled.length - 1] as FormRow['columns'][number];
  last.widthFraction += residue;
  return scaled;
}

/** Adds a full-width row for an element at the end of a section (order forms) or of the form. */
export function appendRow(
  form: Pick<Form, 'type' | 'rows' | 'attendeeRowsStart'>,
  elementIndex: number,
  section: Section,
): { rows: FormRow[]; attendeeRowsStart: number } {
  const row: FormRow = { columns: [{ elementIndex, widthFraction: 1 }] };
  if (form.type === 'order' && section === 'buyer') {
    const rows = [...form.rows];
    rows.splice(form.attendeeRowsStart, 0, row);
    return { rows, attendeeRowsStart: form.attendeeRowsStart + 1 };
  }
  return { rows: [...form.rows, row], attendeeRowsStart: form.attendeeRowsStart };
}

/** Shifts every `elementIndex` past a removed element down by one. */
export function renumberRows(rows: readonly FormRow[], removedIndex: number): FormRow[] {
  return rows.map((row) => ({
    columns: row.columns.map((column) => (column.elementIndex > removedIndex ? { ...column, elementIndex: column.elementIndex - 1 } : column)),
  }));
}
