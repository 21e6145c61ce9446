// A form's fields, pure and DOM-free: read defensively from the model, each value checked as the
// kernel will check it (src/nbask/forms/fields.py), and the typed values a Submit sends.
import type { FieldOption, FieldType, FieldValue, FormField, StringFormat } from "../../contract/contract";
import { FIELD_TYPES, MAX_CHOICE_OPTIONS, MAX_FIELD_CHARS, MAX_FORM_FIELDS, STRING_FORMATS } from "../../contract/contract";
import { asText, isObject } from "../../parts/dom";

/** What a field's check says when its value is not acceptable. */
export const FIELD_ERRORS = {
  required: "This field is required.",
  chooseOne: "Choose one of the options.",
  minLength: (min: number, now: number) => `Use at least ${min} characters (now ${now}).`,
  maxLength: (max: number, now: number) => `Use at most ${max} characters (now ${now}).`,
  email: "Enter an email address, like name@example.com.",
  uri: "Enter a full address with its scheme, like https://example.com.",
  date: "Enter a date as YYYY-MM-DD.",
  dateTime: "Enter a date and a time.",
  number: "Enter a number.",
  integer: "Enter a whole number.",
  minimum: (min: number) => `Enter ${min} or more.`,
  maximum: (max: number) => `Enter ${max} or less.`,
  minItems: (min: number) => `Choose at least ${min}.`,
  maxItems: (max: number) => `Choose at most ${max}.`,
} as const;

// -- reading the model -------------------------------------------------------------------------

function finiteOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function countOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

function readOptions(raw: unknown): FieldOption[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const options: FieldOption[] = [];
  for (const item of raw.slice(0, MAX_CHOICE_OPTIONS)) {
    const option = isObject(item) ? item : {};
    const value = asText(option.value);
    if (seen.has(value)) continue;
    seen.add(value);
    options.push({ value, title: asText(option.title) || value });
  }
  return options;
}

/** The default as the field's type holds it, or null. */
function readDefault(type: FieldType, options: FieldOption[], raw: unknown): FieldValue | null {
  const known = new Set(options.map((o) => o.value));
  switch (type) {
    case "string":
      return typeof raw === "string" ? raw : null;
    case "number":
    case "integer":
      return finiteOrNull(raw);
    case "boolean":
      return typeof raw === "boolean" ? raw : null;
    case "choice":
      return typeof raw === "string" && known.has(raw) ? raw : null;
    case "multi_choice":
      return Array.isArray(raw) ? raw.filter((v): v is string => typeof v === "string" && known.has(v)) : null;
  }
}

/** The model's fields, read defensively: the kernel validates them, but a view must not crash.
 *  Entries that are not objects, have no name or repeat a name are left out. */
export function readFields(raw: unknown): FormField[] {
  if (!Array.isArray(raw)) return [];
  const seen = new Set<string>();
  const fields: FormField[] = [];
  for (const item of raw.slice(0, MAX_FORM_FIELDS)) {
    if (!isObject(item)) continue;
    const name = asText(item.name);
    if (name === "" || seen.has(name)) continue;
    seen.add(name);
    const typeText = asText(item.type);
    const type = (FIELD_TYPES.includes(typeText) ? typeText : "string") as FieldType;
    const formatText = asText(item.format);
    const format = (type === "string" && STRING_FORMATS.includes(formatText) ? formatText : "") as StringFormat;
    const options = type === "choice" || type === "multi_choice" ? readOptions(item.options) : [];
    fields.push({
      name,
      title: asText(item.title) || name,
      description: asText(item.description),
      type,
      required: item.required === true,
      format,
      min_length: countOrNull(item.min_length),
      max_length: countOrNull(item.max_length),
      minimum: finiteOrNull(item.minimum),
      maximum: finiteOrNull(item.maximum),
      min_items: countOrNull(item.min_items),
      max_items: countOrNull(item.max_items),
      options,
      default: readDefault(type, options, item.default),
    });
  }
  return fields;
}

// -- values: what a control holds, its check, and what is sent ---------------------------------

/** What a control holds: the text of an input, a checkbox's state, the chosen option value
 *  ("" = none) or the chosen option values. */
export type RawValue = string | boolean | string[];

/** Stands for input the browser could not read (a half-typed date, letters in a number). */
export const UNREADABLE = "\u0000";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** A datetime-local input's value from an ISO date-time ("YYYY-MM-DDTHH:MM[:SS][Z|±hh:mm]");
 *  the zone is cut off, a bare date gets midnight. "" when it is neither. */
export function toDateTimeLocal(value: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[Tt ](\d{2}:\d{2})(:\d{2})?(?:\.\d+)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(value.trim());
  if (match === null) return "";
  const [, date, time, seconds] = match;
  return `${date ?? ""}T${time ?? "00:00"}${seconds ?? ""}`;
}

/** What a field's control starts with: its default, made to fit the control. */
export function initialValue(field: FormField): RawValue {
  const value = field.default;
  switch (field.type) {
    case "string":
      if (typeof value !== "string") return "";
      if (field.format === "date") return value.slice(0, 10);
      if (field.format === "date-time") return toDateTimeLocal(value);
      return value;
    case "number":
    case "integer":
      return typeof value === "number" ? String(value) : "";
    case "boolean":
      return value === true;
    case "choice":
      return typeof value === "string" ? value : "";
    case "multi_choice":
      return Array.isArray(value) ? value : [];
  }
}

export function textOf(raw: RawValue): string {
  return typeof raw === "string" ? raw : "";
}

export function listOf(raw: RawValue): string[] {
  return Array.isArray(raw) ? raw : [];
}

/** Length in code points, as the kernel (Python's len) counts it. */
function codePoints(text: string): number {
  return Array.from(text).length;
}

function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isDate(text: string): boolean {
  const match = DATE.exec(text);
  return match !== null && isRealDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (match === null || !isDate(match[1] ?? "")) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4] ?? 0) < 60;
}

function isUri(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function stringError(field: FormField, text: string): string | null {
  const length = codePoints(text);
  const max = Math.min(field.max_length ?? MAX_FIELD_CHARS, MAX_FIELD_CHARS);
  if (field.min_length !== null && length < field.min_length) return FIELD_ERRORS.minLength(field.min_length, length);
  if (length > max) return FIELD_ERRORS.maxLength(max, length);
  const trimmed = text.trim();
  switch (field.format) {
    case "email":
      return EMAIL.test(trimmed) ? null : FIELD_ERRORS.email;
    case "uri":
      return isUri(trimmed) ? null : FIELD_ERRORS.uri;
    case "date":
      return isDate(trimmed) ? null : FIELD_ERRORS.date;
    case "date-time":
      return isDateTime(trimmed) ? null : FIELD_ERRORS.dateTime;
    case "":
      return null;
  }
}

function numberError(field: FormField, text: string): string | null {
  const value = Number(text);
  if (!Number.isFinite(value)) return field.type === "integer" ? FIELD_ERRORS.integer : FIELD_ERRORS.number;
  if (field.type === "integer" && !Number.isInteger(value)) return FIELD_ERRORS.integer;
  if (field.minimum !== null && value < field.minimum) return FIELD_ERRORS.minimum(field.minimum);
  if (field.maximum !== null && value > field.maximum) return FIELD_ERRORS.maximum(field.maximum);
  return null;
}

/** Why the control's value cannot be sent for this field, or null when it can. */
export function fieldError(field: FormField, raw: RawValue): string | null {
  switch (field.type) {
    case "string":
    case "number":
    case "integer": {
      const text = textOf(raw);
      if (text.trim() === "") return field.required ? FIELD_ERRORS.required : null;
      return field.type === "string" ? stringError(field, text) : numberError(field, text);
    }
    case "boolean":
      return null;
    case "choice": {
      const value = textOf(raw);
      if (value === "") return field.required ? FIELD_ERRORS.chooseOne : null;
      return field.options.some((o) => o.value === value) ? null : FIELD_ERRORS.chooseOne;
    }
    case "multi_choice": {
      const count = field.options.filter((o) => listOf(raw).includes(o.value)).length;
      // An optional multi choice left empty is not answered at all, whatever its limits.
      if (count === 0 && !field.required) return null;
      const min = Math.max(field.min_items ?? 0, field.required ? 1 : 0);
      if (count < min) return FIELD_ERRORS.minItems(min);
      if (field.max_items !== null && count > field.max_items) return FIELD_ERRORS.maxItems(field.max_items);
      return null;
    }
  }
}

/** The values sent on Submit: typed as the fields say, empty optional text, number and choice
 *  fields left out, booleans always, multi choices as arrays in option order. */
export function collectValues(fields: readonly FormField[], raws: ReadonlyMap<string, RawValue>): Record<string, FieldValue> {
  const entries: [string, FieldValue][] = [];
  for (const field of fields) {
    const raw = raws.get(field.name) ?? initialValue(field);
    switch (field.type) {
      case "string": {
        const text = textOf(raw);
        // Formatted text is sent as the browser's own input would hold it: trimmed.
        if (text.trim() !== "") entries.push([field.name, field.format === "" ? text : text.trim()]);
        break;
      }
      case "number":
      case "integer": {
        const text = textOf(raw);
        if (text.trim() !== "") entries.push([field.name, Number(text)]);
        break;
      }
      case "boolean":
        entries.push([field.name, raw === true]);
        break;
      case "choice":
        if (textOf(raw) !== "") entries.push([field.name, textOf(raw)]);
        break;
      case "multi_choice": {
        const chosen = listOf(raw);
        entries.push([field.name, field.options.filter((o) => chosen.includes(o.value)).map((o) => o.value)]);
        break;
      }
    }
  }
  // fromEntries defines own properties, so a field named "__proto__" stays a plain key.
  return Object.fromEntries(entries);
}

/** Only web pages are opened from the widget: http: and https: URLs that parse. */
export function openableUrl(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : null;
  } catch {
    return null;
  }
}
