// The person's unsent form, as plain data and pure functions (as js/kinds/question/draft.ts is for the
// question kind): what each control holds, which fields the person changed, which checks show.
import type { FormField } from "../../contract/contract";
import { MAX_FIELD_CHARS } from "../../contract/contract";
import type { RawValue } from "./fields";
import { initialValue } from "./fields";
import { isObject } from "../../parts/dom";

export interface FormDraft {
  readonly values: ReadonlyMap<string, RawValue>;
  /** Fields whose value the person changed. */
  readonly dirty: ReadonlySet<string>;
  /** Fields whose check is shown: changed and left, or chosen. */
  readonly touched: ReadonlySet<string>;
  /** Submit was pressed: every check is shown. */
  readonly attempted: boolean;
}

export type FormAction =
  /** A control holds this value (built, or read back before sending): not a change. */
  | { readonly type: "show"; readonly name: string; readonly value: RawValue }
  /** The person changed a field; `commit` (a choice, a change event) also shows its check. */
  | { readonly type: "edit"; readonly name: string; readonly value: RawValue; readonly commit: boolean }
  /** Focus left a field: a changed one shows its check from now on. */
  | { readonly type: "leave"; readonly name: string }
  /** Submit was pressed. */
  | { readonly type: "attempt" };

export function emptyFormDraft(fields: readonly FormField[]): FormDraft {
  return { values: new Map(fields.map((f) => [f.name, initialValue(f)])), dirty: new Set(), touched: new Set(), attempted: false };
}

function withValue(values: ReadonlyMap<string, RawValue>, name: string, value: RawValue): Map<string, RawValue> {
  return new Map(values).set(name, value);
}

function withName(names: ReadonlySet<string>, name: string): ReadonlySet<string> {
  return names.has(name) ? names : new Set(names).add(name);
}

/** The draft after `action`; the same object when nothing changed. */
export function reduceFormDraft(draft: FormDraft, action: FormAction): FormDraft {
  switch (action.type) {
    case "show":
      return { ...draft, values: withValue(draft.values, action.name, action.value) };
    case "edit":
      return {
        ...draft,
        values: withValue(draft.values, action.name, action.value),
        dirty: withName(draft.dirty, action.name),
        touched: action.commit ? withName(draft.touched, action.name) : draft.touched,
      };
    case "leave":
      if (!draft.dirty.has(action.name) || draft.touched.has(action.name)) return draft;
      return { ...draft, touched: withName(draft.touched, action.name) };
    case "attempt":
      return draft.attempted ? draft : { ...draft, attempted: true };
  }
}

/** A saved draft's value for `field` if it is of the kind its control holds (capped as the
 *  control caps it), else null. */
function savedValue(field: FormField, value: unknown): RawValue | null {
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? value : null;
    case "multi_choice":
      return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : null;
    case "choice":
      return typeof value === "string" ? value : null;
    default:
      return typeof value === "string" ? value.slice(0, MAX_FIELD_CHARS) : null;
  }
}

function names(raw: unknown): Set<string> {
  return new Set(Array.isArray(raw) ? raw.filter((n): n is string => typeof n === "string") : []);
}

/** The values a saved draft brings back (read defensively): only those the person changed and
 *  of the kind their control holds; the rest keep what they have. */
export function restoredValues(fields: readonly FormField[], data: Record<string, unknown>): Map<string, RawValue> {
  const values = isObject(data.values) ? data.values : {};
  const dirty = names(data.dirty);
  const restored = new Map<string, RawValue>();
  for (const field of fields) {
    const value = savedValue(field, values[field.name]);
    if (value !== null && dirty.has(field.name)) restored.set(field.name, value);
  }
  return restored;
}

/** `draft` with a saved draft taken back: its values (restoredValues) and what it says was
 *  changed, touched and attempted. */
export function restoreFormDraft(draft: FormDraft, fields: readonly FormField[], data: Record<string, unknown>): FormDraft {
  const values = new Map(draft.values);
  for (const [name, value] of restoredValues(fields, data)) values.set(name, value);
  return { values, dirty: names(data.dirty), touched: names(data.touched), attempted: data.attempted === true };
}

/** What is saved: plain JSON. */
export function formDraftData(draft: FormDraft): Record<string, unknown> {
  return {
    values: Object.fromEntries(draft.values),
    dirty: [...draft.dirty],
    touched: [...draft.touched],
    attempted: draft.attempted,
  };
}
