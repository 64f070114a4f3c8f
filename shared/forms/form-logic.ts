import type { ErrorDetail } from '../errors.js';
import type { Property } from '../properties/property-model.js';
import { canRevealOthers, hasOther, optionValuesOf, view, type ElementView } from './element-kinds.js';
import type { FormElement, LogicGroup, SelectionLogicGroup } from './form-element-model.js';
import type { Form } from './form-model.js';
import { sectionOf } from './form-layout.js';

export function isSelectionGroup(group: LogicGroup): group is SelectionLogicGroup {
  return 'optionIndices' in group;
}

/**
 * Logic rules (spec "Conditional logic groups", "Add logic rule"): only selection and Yes/No
 * questions carry groups, of their own shape; the revealed element exists and is not the source;
 * option indices are in range of the question's (or its property's) options, -1 only where the type
 * has Other; on order forms an attendee element never reveals a buyer element.
 */
export function validateLogic(
  form: Pick<Form, 'type' | 'elements'>,
  properties: ReadonlyMap<string, Property>,
  /** Option-index lists (JSON) the source already had against its linked property: not re-judged for range. */
  keptLinkedIndices: (source: ElementView) => ReadonlySet<string> = () => new Set(),
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  form.elements.forEach((element, index) => {
    const source = view(element);
    const groups = source.logicGroups;
    if (groups === undefined) return;
    const base = `elements[${index}].logicGroups`;
    if (!canRevealOthers(source.type)) {
      details.push({ path: base, message: `a ${source.type} element cannot carry logic groups (only selection and Yes/No questions)` });
      return;
    }
    const propertyOptions = source.propertyId ? properties.get(source.propertyId)?.options : undefined;
    const optionCount = optionValuesOf(source, propertyOptions)?.length;
    const kept = source.propertyId === undefined ? new Set<string>() : keptLinkedIndices(source);
    groups.forEach((group, g) => {
      const path = `${base}[${g}]`;
      const target = form.elements[group.revealedElementIndex];
      if (!target) {
        details.push({ path: `${path}.revealedElementIndex`, message: `no element at index ${group.revealedElementIndex}` });
      } else if (group.revealedElementIndex === index) {
        details.push({ path: `${path}.revealedElementIndex`, message: 'an element cannot reveal itself' });
      } else if (form.type === 'order' && sectionOf(form, source) === 'attendee' && sectionOf(form, target) === 'buyer') {
        details.push({ path: `${path}.revealedElementIndex`, message: 'an attendee-section element cannot reveal a buyer-section element' });
      }
      if (source.type === 'Yes/No') {
        if (isSelectionGroup(group)) details.push({ path, message: 'Yes/No groups take {revealedElementIndex, selectionType, value}' });
        return;
      }
      if (!isSelectionGroup(group)) {
        details.push({ path, message: 'selection groups take {revealedElementIndex, optionIndices, operator}' });
        return;
      }
      const rangeChecked = !kept.has(JSON.stringify(group.optionIndices));
      group.optionIndices.forEach((optionIndex, o) => {
        const optionPath = `${path}.optionIndices[${o}]`;
        if (optionIndex === -1) {
          if (!hasOther(source.type)) details.push({ path: optionPath, message: `-1 (Other) is only valid on types with an Other option, not ${source.type}` });
        } else if (rangeChecked && optionCount !== undefined && optionIndex >= optionCount) {
          details.push({ path: optionPath, message: `option index ${optionIndex} is out of range (${optionCount} options)` });
        }
      });
      if (new Set(group.optionIndices).size !== group.optionIndices.length) {
        details.push({ path: `${path}.optionIndices`, message: 'option indices must be unique' });
      }
    });
  });
  return details;
}

/**
 * The indices of the elements no answers can ever show. An element no group reveals is shown; one a
 * group reveals is hidden until a group referencing it is satisfied (spec "Conditional logic groups"),
 * which needs that group's source shown. So elements revealed only from within a reveal cycle with no
 * way in (A reveals B and B reveals A, and nothing else reveals either) stay hidden for good.
 */
export function neverShownIndices(elements: readonly FormElement[]): Set<number> {
  const revealers = new Map<number, number[]>();
  elements.forEach((element, source) => {
    for (const group of view(element).logicGroups ?? []) {
      revealers.set(group.revealedElementIndex, [...(revealers.get(group.revealedElementIndex) ?? []), source]);
    }
  });
  const shown = new Set(elements.map((_element, index) => index).filter((index) => !revealers.has(index)));
  for (let grew = true; grew;) {
    grew = false;
    for (const [target, sources] of revealers) {
      if (!shown.has(target) && sources.some((source) => shown.has(source))) {
        shown.add(target);
        grew = true;
      }
    }
  }
  return new Set(elements.map((_element, index) => index).filter((index) => !shown.has(index)));
}

/** `source>target` by element ids, for each group of the elements. */
function revealKeys(elements: readonly FormElement[]): Set<string> {
  return new Set(elements.flatMap((element) => (view(element).logicGroups ?? []).map((group) => `${element.id}>${elements[group.revealedElementIndex]?.id}`)));
}

/**
 * A change that leaves an element never shown (see `neverShownIndices`) is refused on each group it
 * adds to the cycle that hides it. Groups the form held before (`previous`, matched by the ids of
 * their source and target) are not judged again: a form stored that way stays editable, and deleting
 * the element that led into a cycle is not refused.
 */
export function neverShownErrors(elements: readonly FormElement[], previous: readonly FormElement[]): ErrorDetail[] {
  const hidden = neverShownIndices(elements);
  if (hidden.size === 0) return [];
  const held = revealKeys(previous);
  const details: ErrorDetail[] = [];
  elements.forEach((element, source) => {
    (view(element).logicGroups ?? []).forEach((group, g) => {
      const target = group.revealedElementIndex;
      if (!hidden.has(target) || !hidden.has(source) || held.has(`${element.id}>${elements[target]?.id}`)) return;
      details.push({
        path: `elements[${source}].logicGroups[${g}].revealedElementIndex`,
        message: `elements[${target}] would never be shown: every element that reveals it is itself hidden until it is shown (a reveal cycle)`,
      });
    });
  });
  return details;
}

/** Applies `change` to the groups of every element; an element left without groups loses the field. */
export function mapLogicGroups(elements: readonly FormElement[], change: (group: LogicGroup, sourceIndex: number) => LogicGroup | undefined): FormElement[] {
  return elements.map((element, sourceIndex) => {
    const groups = view(element).logicGroups;
    if (groups === undefined) return element;
    const kept = groups.map((group) => change(group, sourceIndex)).filter((group): group is LogicGroup => group !== undefined);
    return withLogicGroups(element, kept);
  });
}

/** Sets (or, when empty, removes) an element's `logicGroups`. */
export function withLogicGroups(element: FormElement, groups: readonly LogicGroup[]): FormElement {
  const { logicGroups: _removed, ...rest } = element as FormElement & { logicGroups?: unknown };
  return (groups.length === 0 ? rest : { ...rest, logicGroups: groups }) as FormElement;
}

/**
 * After deleting the element at `removedIndex`: groups revealing it disappear, and every
 * `revealedElementIndex` past it moves down by one.
 */
export function renumberLogicAfterDelete(elements: readonly FormElement[], removedIndex: number): FormElement[] {
  return mapLogicGroups(elements, (group) => {
    if (group.revealedElementIndex === removedIndex) return undefined;
    return group.revealedElementIndex > removedIndex ? { ...group, revealedElementIndex: group.revealedElementIndex - 1 } : group;
  });
}
