// The form kind's fields: text, email, url, date, date-time, number and integer as one labelled
// input, yes/no as a checkbox, one or several choices as a group; each with its description,
// its required mark and the message its check shows (js/kinds/form/fields.ts says what is wrong).
import type { FormField } from "../../contract/contract";
import { MAX_FIELD_CHARS } from "../../contract/contract";
import type { RawValue } from "./fields";
import { UNREADABLE, listOf, textOf } from "./fields";
import { charCounter, el, setFieldValue, textEl } from "../../parts/dom";
import { choiceInput, optionRow } from "../../parts/option";

/** What the builders need from the view: ids, the draft's values, and where edits go. */
export interface FieldContext {
  id: (suffix: string) => string;
  value: (name: string) => RawValue | undefined;
  /** The value a control shows once built (the browser may refuse a default). */
  shown: (name: string, value: RawValue) => void;
  edit: (name: string, value: RawValue, commit: boolean) => void;
  /** Focus left a text field. */
  leave: (name: string) => void;
}

/** One field's controls, kept so the view can show its check in place. */
export interface FieldControls {
  field: FormField;
  /** The field's block: label, description, control, check. */
  wrap: HTMLElement;
  /** Carries aria-invalid and aria-describedby: the input, or the group of a choice. */
  described: HTMLElement;
  /** The ids it is always described by (description, hint). */
  describedBy: string[];
  /** Where focus goes for this field. */
  focusTarget: () => HTMLElement;
  error: HTMLElement;
  read: () => RawValue;
  /** Shows a value from a saved draft, in place (a focused text keeps its caret). */
  write: (value: RawValue) => void;
}

/** What every field builder is given: the field, its index, and the parts buildField made. */
interface FieldParts {
  ctx: FieldContext;
  field: FormField;
  fi: number;
  wrap: HTMLElement;
  title: HTMLElement;
  description: HTMLElement | null;
  describedBy: string[];
}

/** What a field builder gives back. */
type Built = Pick<FieldControls, "described" | "focusTarget" | "read" | "write">;

export function buildField(ctx: FieldContext, field: FormField, fi: number): FieldControls {
  const wrap = el("div", "nbask-field");
  wrap.dataset.type = field.type;
  const titleId = ctx.id(`f${fi}-title`);
  const title = textEl("span", "nbask-field-title", field.title);
  title.id = titleId;
  const describedBy: string[] = [];
  let description: HTMLElement | null = null;
  if (field.description.trim() !== "") {
    description = textEl("div", "nbask-field-desc", field.description);
    description.id = ctx.id(`f${fi}-desc`);
    describedBy.push(description.id);
  }
  const error = el("div", "nbask-field-error");
  error.id = ctx.id(`f${fi}-error`);
  error.dir = "auto";
  error.hidden = true;

  const parts: FieldParts = { ctx, field, fi, wrap, title, description, describedBy };
  let built: Built;
  if (field.type === "boolean") {
    built = buildCheckbox(parts);
  } else if (field.type === "choice" || field.type === "multi_choice") {
    built = buildGroup(parts);
  } else {
    built = buildInput(parts);
  }
  // A choice's message sits inside its group, under the options.
  (built.described instanceof HTMLFieldSetElement ? built.described : wrap).append(error);
  const controls: FieldControls = { field, wrap, describedBy, error, ...built };
  setDescribedBy(controls, false);
  return controls;
}

function requiredMark(): HTMLElement {
  const mark = el("span", "nbask-required", "*");
  mark.setAttribute("aria-hidden", "true");
  return mark;
}

/** Text, email, url, date, date-time, number and integer fields: one labelled input. */
function buildInput({ ctx, field, fi, wrap, title, description, describedBy }: FieldParts): Built {
  const input = el("input", "nbask-field-input");
  input.id = ctx.id(`f${fi}`);
  input.autocomplete = "off";
  input.required = field.required;
  const label = el("label", "nbask-field-label");
  label.htmlFor = input.id;
  label.append(title);
  if (field.required) label.append(requiredMark());
  wrap.append(label);
  if (description) wrap.append(description);

  let counter: ReturnType<typeof charCounter> | null = null;
  let bounds: HTMLElement | null = null;
  if (field.type === "number" || field.type === "integer") {
    input.type = "number";
    input.step = field.type === "integer" ? "1" : "any";
    if (field.minimum !== null) input.min = String(field.minimum);
    if (field.maximum !== null) input.max = String(field.maximum);
    // The bounds are said before any value is checked, beside the field.
    const hint = boundsHint(field.minimum, field.maximum);
    if (hint !== "") {
      bounds = el("span", "nbask-field-bounds", hint);
      bounds.id = ctx.id(`f${fi}-bounds`);
      describedBy.push(bounds.id);
    }
  } else if (field.format === "date" || field.format === "date-time") {
    input.type = field.format === "date" ? "date" : "datetime-local";
  } else {
    input.type = field.format === "email" ? "email" : field.format === "uri" ? "url" : "text";
    input.dir = field.format === "" ? "auto" : "ltr";
    if (field.format !== "") input.spellcheck = false;
    // Code points are checked below; the browser's cap counts UTF-16 units, which only
    // ever stops text earlier.
    counter = charCounter(input, Math.min(field.max_length ?? MAX_FIELD_CHARS, MAX_FIELD_CHARS));
  }
  // Set once the type is known: the browser keeps only a value that fits the type.
  input.value = textOf(ctx.value(field.name) ?? "");
  counter?.refresh();
  const row = el("div", "nbask-field-row");
  row.append(input);
  if (bounds) row.append(bounds);
  if (counter) row.append(counter.element);
  wrap.append(row);

  const read = (): RawValue => (input.validity.badInput ? UNREADABLE : input.value);
  // The browser may have refused a default that does not fit the input (a malformed date):
  // the draft holds what is shown.
  ctx.shown(field.name, read());
  input.addEventListener("input", () => ctx.edit(field.name, read(), false));
  input.addEventListener("change", () => ctx.edit(field.name, read(), true));
  input.addEventListener("blur", () => ctx.leave(field.name));
  const write = (value: RawValue): void => {
    if (setFieldValue(input, value === UNREADABLE ? "" : textOf(value))) counter?.refresh();
  };
  return { described: input, focusTarget: () => input, read, write };
}

/** A yes/no field: one checkbox named by the title. */
function buildCheckbox({ ctx, field, wrap, title, description }: FieldParts): Built {
  const input = el("input", "nbask-input");
  input.type = "checkbox";
  input.checked = ctx.value(field.name) === true;
  input.setAttribute("aria-labelledby", title.id);
  // Required means only that a yes/no is sent, which it always is: not marked.
  const body = el("span", "nbask-option-body");
  body.append(title);
  if (description) body.append(description);
  const row = optionRow(input, body);
  row.classList.add("nbask-check");
  wrap.append(row);
  const read = (): RawValue => input.checked;
  input.addEventListener("change", () => ctx.edit(field.name, read(), true));
  const write = (value: RawValue): void => {
    input.checked = value === true;
  };
  return { described: input, focusTarget: () => input, read, write };
}

/** A choice (radios) or a multi choice (checkboxes) in a fieldset named by the title. */
function buildGroup({ ctx, field, fi, wrap, title, description, describedBy }: FieldParts): Built {
  const multi = field.type === "multi_choice";
  // A group (as the question kind's), named by the title alone, not the star.
  const fieldset = el("fieldset", "nbask-field-group");
  fieldset.setAttribute("aria-labelledby", title.id);
  const legend = el("legend", "nbask-field-label");
  legend.append(title);
  if (field.required) legend.append(requiredMark());
  fieldset.append(legend);
  if (description) fieldset.append(description);
  if (multi) {
    const hint = itemsHint(field);
    if (hint !== "") {
      const node = el("div", "nbask-multi-hint", hint);
      node.id = ctx.id(`f${fi}-hint`);
      describedBy.push(node.id);
      fieldset.append(node);
    }
  }
  const list = el("div", "nbask-options");
  const name = ctx.id(`f${fi}-choice`);
  const chosen = ctx.value(field.name) ?? (multi ? [] : "");
  const inputs = field.options.map((option, oi) => {
    const input = choiceInput(multi ? "checkbox" : "radio", name, option.value);
    input.checked = multi ? listOf(chosen).includes(option.value) : chosen === option.value;
    // On radios, HTML's required means "one of the group must be chosen".
    if (!multi) input.required = field.required;
    const label = textEl("span", "nbask-option-label", option.title);
    label.id = ctx.id(`f${fi}-o${oi}`);
    input.setAttribute("aria-labelledby", label.id);
    list.append(optionRow(input, label));
    return input;
  });
  fieldset.append(list);
  wrap.append(fieldset);

  const read = (): RawValue =>
    multi ? inputs.filter((i) => i.checked).map((i) => i.value) : (inputs.find((i) => i.checked)?.value ?? "");
  for (const input of inputs) input.addEventListener("change", () => ctx.edit(field.name, read(), true));
  // Focus goes where the browser's Tab would: the chosen radio, else the first option.
  const focusTarget = (): HTMLElement => inputs.find((i) => i.checked && !multi) ?? inputs[0] ?? fieldset;
  const write = (value: RawValue): void => {
    for (const input of inputs) input.checked = multi ? listOf(value).includes(input.value) : value === input.value;
  };
  return { described: fieldset, focusTarget, read, write };
}

export function setDescribedBy(controls: FieldControls, invalid: boolean): void {
  const ids = invalid ? [...controls.describedBy, controls.error.id] : controls.describedBy;
  if (ids.length > 0) controls.described.setAttribute("aria-describedby", ids.join(" "));
  else controls.described.removeAttribute("aria-describedby");
  if (invalid) controls.described.setAttribute("aria-invalid", "true");
  else controls.described.removeAttribute("aria-invalid");
}

/** A number field's bounds as its hint: "1–10", "1 or more", "10 or less", or "" for none. */
export function boundsHint(minimum: number | null, maximum: number | null): string {
  if (minimum !== null && maximum !== null) return `${String(minimum)}–${String(maximum)}`;
  if (minimum !== null) return `${String(minimum)} or more`;
  if (maximum !== null) return `${String(maximum)} or less`;
  return "";
}

/** A multi choice's limits in words, or "" when it has none. */
function itemsHint(field: FormField): string {
  const min = Math.max(field.min_items ?? 0, field.required ? 1 : 0);
  const max = field.max_items;
  // An optional multi choice may also be left empty.
  const orNone = field.required ? "" : ", or none";
  if (max !== null && min > 0) return min === max ? `Choose ${min}${orNone}` : `Choose ${min} to ${max}${orNone}`;
  if (max !== null) return `Choose up to ${max}`;
  if (min > 0) return `Choose at least ${min}${orNone}`;
  return "Select all that apply";
}
