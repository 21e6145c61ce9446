// The form kind: a typed form (text, number, integer, yes/no, one choice, several choices)
// with client-side checks (js/fields.ts), Submit / Dismiss and the kernel's refusal shown in an alert; or, in
// URL mode, a page the person may choose to open, with Open / Decline. The resolved block lists
// each field with the value the kernel accepted.
import type { AnyModel } from "@anywidget/types";
import type { FormField, FormModel, FormResponse } from "./contract";
import { MAX_FIELD_CHARS } from "./contract";
import type { RawValue } from "./fields";
import {
  UNREADABLE,
  collectValues,
  fieldError,
  initialValue,
  listOf,
  openableUrl,
  readFields,
  textOf,
} from "./fields";
import { asText, button, charCounter, el, isObject, suppressShortcuts, textEl } from "./dom";
import { KernelRefusal } from "./refusal";
import { InteractionView } from "./shell";

// Button names are part of the accessibility contract (end-to-end tests find them by role and
// name), so no other text here contains them.
export const FORM_TEXT = {
  title: "The agent asks you to fill in a form",
  urlTitle: "The agent asks you to open a page",
  submit: "Submit",
  dismiss: "Dismiss",
  open: "Open",
  decline: "Decline",
  urlLabel: "Page address",
  site: "Site",
  unsafeUrl: "This address is not an http or https web page, so it cannot be opened from here.",
  keys: "Keys: Enter send · Esc close",
  urlKeys: "Esc declines",
  yes: "Yes",
  no: "No",
  missing: "—",
} as const;

/** A value as the resolved block shows it: choices by their titles, booleans as Yes / No. */
export function showValue(field: FormField, value: unknown): string {
  const titles = new Map(field.options.map((o) => [o.value, o.title]));
  if (value === undefined || value === null) return FORM_TEXT.missing;
  if (typeof value === "boolean") return value ? FORM_TEXT.yes : FORM_TEXT.no;
  if (Array.isArray(value)) {
    const shown = value.map((item) => titles.get(asText(item)) ?? asText(item));
    return shown.length > 0 ? shown.join(", ") : FORM_TEXT.missing;
  }
  const text = asText(value);
  return titles.get(text) ?? text;
}

// -- the view ----------------------------------------------------------------------------------

/** The person's unsent state: what each control holds, and which checks to show. */
interface Draft {
  values: Map<string, RawValue>;
  /** Fields whose value the person changed. */
  dirty: Set<string>;
  /** Fields whose check is shown: changed and left, or chosen. */
  touched: Set<string>;
  /** Submit was pressed: every check is shown. */
  attempted: boolean;
}

/** One field's controls, kept so the view can show its check in place. */
interface FieldControls {
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
}

interface Controls {
  fields: FieldControls[];
  alert: HTMLElement;
  submit: HTMLButtonElement | null;
  open: HTMLButtonElement | null;
  decline: HTMLButtonElement | null;
}

export class FormView extends InteractionView<FormModel> {
  private fields: FormField[] = [];
  private draft: Draft = { values: new Map(), dirty: new Set(), touched: new Set(), attempted: false };
  private controls: Controls | null = null;
  /** The kernel's error was put away by the person editing or sending again. */
  private readonly refusal = new KernelRefusal();
  /** A pointer is pressed inside the form: checks of fields it left wait for its release. */
  private pointerHeld = false;
  private readonly leftWhileHeld = new Set<string>();

  constructor(model: AnyModel<FormModel>, host: HTMLElement) {
    super(model, host, "form", ["message", "fields", "url", "error"]);
    this.root.addEventListener("pointerdown", this.onPointerDown, true);
    window.addEventListener("pointerup", this.onPointerUp, true);
    window.addEventListener("pointercancel", this.onPointerUp, true);
    this.start();
  }

  override destroy(): void {
    this.root.removeEventListener("pointerdown", this.onPointerDown, true);
    window.removeEventListener("pointerup", this.onPointerUp, true);
    window.removeEventListener("pointercancel", this.onPointerUp, true);
    super.destroy();
  }

  private readonly onPointerDown = (): void => {
    this.pointerHeld = true;
  };

  /** A check shown on blur would push the fields below it down between the press and the
   *  release, so the release would land beside the control pressed and the click be lost:
   *  such checks are shown once the click is over. */
  private readonly onPointerUp = (): void => {
    if (!this.pointerHeld) return;
    this.pointerHeld = false;
    setTimeout(() => {
      const names = [...this.leftWhileHeld];
      this.leftWhileHeld.clear();
      for (const name of names) this.showCheck(name);
    }, 0);
  };

  private url(): string {
    return asText(this.model.get("url"));
  }

  private message(): string {
    return asText(this.model.get("message"));
  }

  private isUrlMode(): boolean {
    return this.url() !== "";
  }

  /** A page to open is not offered after the time limit: no one waits for it any more. */
  protected override offersLateAnswer(): boolean {
    return !this.isUrlMode();
  }

  protected pendingKey(): string {
    return JSON.stringify([
      asText(this.model.get("request_id")),
      this.message(),
      this.url(),
      JSON.stringify(readFields(this.model.get("fields"))),
    ]);
  }

  protected resetDraft(): void {
    this.fields = this.isUrlMode() ? [] : readFields(this.model.get("fields"));
    this.draft = {
      values: new Map(this.fields.map((f) => [f.name, initialValue(f)])),
      dirty: new Set(),
      touched: new Set(),
      attempted: false,
    };
    this.controls = null;
    this.refusal.reset();
  }

  protected refreshForm(locked: boolean): void {
    const controls = this.controls;
    if (controls === null) return;
    if (controls.open) controls.open.disabled = locked || openableUrl(this.url()) === null;
    this.refusal.update(this.controls?.alert, asText(this.model.get("error")), this.isSending());
  }

  protected autofocusTarget(): HTMLElement | null {
    const controls = this.controls;
    if (controls === null) return null;
    if (this.isUrlMode()) return controls.decline;
    return controls.fields[0]?.focusTarget() ?? controls.submit;
  }

  // -- building --------------------------------------------------------------------------------

  protected buildForm(): HTMLElement {
    const urlMode = this.isUrlMode();
    const element = el("div", urlMode ? "nbask-form nbask-form-kind nbask-url-mode" : "nbask-form nbask-form-kind");
    const top = el("div", "nbask-top");
    top.append(el("span", "nbask-title", urlMode ? FORM_TEXT.urlTitle : FORM_TEXT.title), this.makeTimer());
    const message = textEl("p", "nbask-form-message", this.message());
    message.hidden = this.message() === "";

    const alert = el("div", "nbask-form-error");
    alert.setAttribute("role", "alert");
    alert.dir = "auto";
    alert.hidden = true;

    const keys = el("span", "nbask-keys", urlMode ? FORM_TEXT.urlKeys : FORM_TEXT.keys);
    keys.setAttribute("aria-hidden", "true");
    const footer = el("div", "nbask-footer");
    footer.append(keys, this.makeSendingNote(), el("span", "nbask-spacer"));

    if (urlMode) {
      const { box, open, decline } = this.buildUrl();
      footer.append(open, decline);
      element.append(top, message, box, alert, footer);
      this.controls = { fields: [], alert, submit: null, open, decline };
    } else {
      const fields = this.fields.map((field, fi) => this.buildField(field, fi));
      const submit = button("nbask-button nbask-primary", FORM_TEXT.submit, () => this.requestSubmit());
      const dismiss = button("nbask-button", FORM_TEXT.dismiss, () => this.send("dismiss"));
      footer.append(submit, dismiss);
      const list = el("div", "nbask-fields");
      list.append(...fields.map((f) => f.wrap));
      element.append(top, message, list, alert, footer);
      this.controls = { fields, alert, submit, open: null, decline: null };
    }
    return element;
  }

  /** URL mode: the address whole, as selectable text, and what Open would do. */
  private buildUrl(): { box: HTMLElement; open: HTMLButtonElement; decline: HTMLButtonElement } {
    const url = this.url();
    const box = el("div", "nbask-url-box");
    const label = el("div", "nbask-url-label", FORM_TEXT.urlLabel);
    // Never a link: the page opens only from the Open button.
    const address = el("code", "nbask-url", url);
    address.dir = "ltr";
    box.append(label, address);
    const open = button("nbask-button nbask-primary", FORM_TEXT.open, () => this.openPage());
    const decline = button("nbask-button", FORM_TEXT.decline, () => this.send("dismiss"));
    const parsed = openableUrl(url);
    if (parsed === null) {
      const why = el("p", "nbask-url-note", FORM_TEXT.unsafeUrl);
      why.id = this.domId("url-note");
      open.setAttribute("aria-describedby", why.id);
      open.disabled = true;
      box.append(why);
    } else {
      // The host as the browser reads it (punycode included), so a look-alike address shows.
      const site = el("p", "nbask-url-site");
      site.append(el("span", "nbask-resolved-label", `${FORM_TEXT.site}: `), el("span", "", parsed.host));
      box.append(site);
    }
    return { box, open, decline };
  }

  private buildField(field: FormField, fi: number): FieldControls {
    const wrap = el("div", "nbask-field");
    wrap.dataset.type = field.type;
    const titleId = this.domId(`f${fi}-title`);
    const title = textEl("span", "nbask-field-title", field.title);
    title.id = titleId;
    const describedBy: string[] = [];
    let description: HTMLElement | null = null;
    if (field.description.trim() !== "") {
      description = textEl("div", "nbask-field-desc", field.description);
      description.id = this.domId(`f${fi}-desc`);
      describedBy.push(description.id);
    }
    const error = el("div", "nbask-field-error");
    error.id = this.domId(`f${fi}-error`);
    error.dir = "auto";
    error.hidden = true;

    let built: Pick<FieldControls, "described" | "focusTarget" | "read">;
    if (field.type === "boolean") {
      built = this.buildCheckbox(field, wrap, title, description);
    } else if (field.type === "choice" || field.type === "multi_choice") {
      built = this.buildGroup(field, fi, wrap, title, description, describedBy);
    } else {
      built = this.buildInput(field, fi, wrap, title, description);
    }
    // A choice's message sits inside its group, under the options.
    (built.described instanceof HTMLFieldSetElement ? built.described : wrap).append(error);
    const controls: FieldControls = { field, wrap, describedBy, error, ...built };
    this.setDescribedBy(controls, false);
    return controls;
  }

  private requiredMark(): HTMLElement {
    const mark = el("span", "nbask-required", "*");
    mark.setAttribute("aria-hidden", "true");
    return mark;
  }

  /** Text, email, url, date, date-time, number and integer fields: one labelled input. */
  private buildInput(
    field: FormField,
    fi: number,
    wrap: HTMLElement,
    title: HTMLElement,
    description: HTMLElement | null,
  ): Pick<FieldControls, "described" | "focusTarget" | "read"> {
    const input = suppressShortcuts(el("input", "nbask-field-input"));
    input.id = this.domId(`f${fi}`);
    input.autocomplete = "off";
    input.required = field.required;
    const label = el("label", "nbask-field-label");
    label.htmlFor = input.id;
    label.append(title);
    if (field.required) label.append(this.requiredMark());
    wrap.append(label);
    if (description) wrap.append(description);

    let counter: ReturnType<typeof charCounter> | null = null;
    if (field.type === "number" || field.type === "integer") {
      input.type = "number";
      input.step = field.type === "integer" ? "1" : "any";
      if (field.minimum !== null) input.min = String(field.minimum);
      if (field.maximum !== null) input.max = String(field.maximum);
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
    input.value = textOf(this.draft.values.get(field.name) ?? "");
    counter?.refresh();
    const row = el("div", "nbask-field-row");
    row.append(input);
    if (counter) row.append(counter.element);
    wrap.append(row);

    const read = (): RawValue => (input.validity.badInput ? UNREADABLE : input.value);
    // The browser may have refused a default that does not fit the input (a malformed date):
    // the draft holds what is shown.
    this.draft.values.set(field.name, read());
    input.addEventListener("input", () => this.edit(field.name, read(), false));
    input.addEventListener("change", () => this.edit(field.name, read(), true));
    input.addEventListener("blur", () => this.leave(field.name));
    return { described: input, focusTarget: () => input, read };
  }

  /** A yes/no field: one checkbox named by the title. */
  private buildCheckbox(
    field: FormField,
    wrap: HTMLElement,
    title: HTMLElement,
    description: HTMLElement | null,
  ): Pick<FieldControls, "described" | "focusTarget" | "read"> {
    const input = suppressShortcuts(el("input", "nbask-input"));
    input.type = "checkbox";
    input.checked = this.draft.values.get(field.name) === true;
    input.setAttribute("aria-labelledby", title.id);
    // Required means only that a yes/no is sent, which it always is: not marked.
    const row = el("label", "nbask-option nbask-check");
    const body = el("span", "nbask-option-body");
    body.append(title);
    if (description) body.append(description);
    row.append(input, body);
    wrap.append(row);
    const read = (): RawValue => input.checked;
    input.addEventListener("change", () => this.edit(field.name, read(), true));
    return { described: input, focusTarget: () => input, read };
  }

  /** A choice (radios) or a multi choice (checkboxes) in a fieldset named by the title. */
  private buildGroup(
    field: FormField,
    fi: number,
    wrap: HTMLElement,
    title: HTMLElement,
    description: HTMLElement | null,
    describedBy: string[],
  ): Pick<FieldControls, "described" | "focusTarget" | "read"> {
    const multi = field.type === "multi_choice";
    // A group (as the question kind's), named by the title alone, not the star.
    const fieldset = el("fieldset", "nbask-field-group");
    fieldset.setAttribute("aria-labelledby", title.id);
    const legend = el("legend", "nbask-field-label");
    legend.append(title);
    if (field.required) legend.append(this.requiredMark());
    fieldset.append(legend);
    if (description) fieldset.append(description);
    if (multi) {
      const hint = itemsHint(field);
      if (hint !== "") {
        const node = el("div", "nbask-multi-hint", hint);
        node.id = this.domId(`f${fi}-hint`);
        describedBy.push(node.id);
        fieldset.append(node);
      }
    }
    const list = el("div", "nbask-options");
    const name = this.domId(`f${fi}-choice`);
    const chosen = this.draft.values.get(field.name) ?? (multi ? [] : "");
    const inputs = field.options.map((option, oi) => {
      const input = suppressShortcuts(el("input", "nbask-input"));
      input.type = multi ? "checkbox" : "radio";
      input.name = name;
      input.value = option.value;
      input.checked = multi ? listOf(chosen).includes(option.value) : chosen === option.value;
      // On radios, HTML's required means "one of the group must be chosen".
      if (!multi) input.required = field.required;
      const label = textEl("span", "nbask-option-label", option.title);
      label.id = this.domId(`f${fi}-o${oi}`);
      input.setAttribute("aria-labelledby", label.id);
      const row = el("label", "nbask-option");
      row.append(input, label);
      list.append(row);
      return input;
    });
    fieldset.append(list);
    wrap.append(fieldset);

    const read = (): RawValue =>
      multi ? inputs.filter((i) => i.checked).map((i) => i.value) : (inputs.find((i) => i.checked)?.value ?? "");
    for (const input of inputs) input.addEventListener("change", () => this.edit(field.name, read(), true));
    // Focus goes where the browser's Tab would: the chosen radio, else the first option.
    const focusTarget = (): HTMLElement => inputs.find((i) => i.checked && !multi) ?? inputs[0] ?? fieldset;
    return { described: fieldset, focusTarget, read };
  }

  protected buildResolved(status: string): HTMLElement {
    this.controls = null;
    const block = el("div", "nbask-resolved nbask-form-kind");
    block.append(this.statusLine(status));
    const message = this.message();
    if (message !== "") block.append(textEl("p", "nbask-form-message", message));

    const result = this.model.get("result");
    const outcome = isObject(result) ? result : {};
    const url = this.url();
    if (url !== "") {
      const address = el("code", "nbask-url", url);
      address.dir = "ltr";
      block.append(address);
    } else if (status === "answered") {
      const values = isObject(outcome.values) ? outcome.values : {};
      const list = el("dl", "nbask-resolved-list");
      for (const field of readFields(this.model.get("fields"))) {
        const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
        list.append(
          textEl("dt", "nbask-resolved-question", field.title),
          textEl("dd", "nbask-resolved-answer", showValue(field, value)),
        );
      }
      if (list.childElementCount > 0) block.append(list);
    }
    const note = asText(outcome.note);
    if (note.trim() !== "") block.append(textEl("p", "nbask-note", note));
    return block;
  }

  // -- checks ----------------------------------------------------------------------------------

  /** The person changed a field: keep it in the draft, put away the kernel's error, and
   *  re-check the field if its check is shown. */
  private edit(name: string, value: RawValue, commit: boolean): void {
    this.draft.values.set(name, value);
    this.draft.dirty.add(name);
    if (commit) this.draft.touched.add(name);
    this.refusal.putAway(this.controls?.alert, asText(this.model.get("error")), this.isSending());
    if (this.pointerHeld) this.leftWhileHeld.add(name);
    else this.showCheck(name);
  }

  private leave(name: string): void {
    if (!this.draft.dirty.has(name) || this.draft.touched.has(name)) return;
    this.draft.touched.add(name);
    if (this.pointerHeld) this.leftWhileHeld.add(name);
    else this.showCheck(name);
  }

  private setDescribedBy(controls: FieldControls, invalid: boolean): void {
    const ids = invalid ? [...controls.describedBy, controls.error.id] : controls.describedBy;
    if (ids.length > 0) controls.described.setAttribute("aria-describedby", ids.join(" "));
    else controls.described.removeAttribute("aria-describedby");
    if (invalid) controls.described.setAttribute("aria-invalid", "true");
    else controls.described.removeAttribute("aria-invalid");
  }

  /** Shows (or clears) one field's check; returns its error. */
  private showCheck(name: string): string | null {
    const controls = this.controls?.fields.find((c) => c.field.name === name);
    if (!controls) return null;
    const error = fieldError(controls.field, this.draft.values.get(name) ?? initialValue(controls.field));
    const shown = error !== null && (this.draft.attempted || this.draft.touched.has(name)) ? error : null;
    if (controls.error.textContent !== (shown ?? "")) controls.error.textContent = shown ?? "";
    controls.error.hidden = shown === null;
    controls.wrap.toggleAttribute("data-invalid", shown !== null);
    this.setDescribedBy(controls, shown !== null);
    return error;
  }

  // -- actions ---------------------------------------------------------------------------------

  /** Submit: sends when every field passes its check; else shows every check and focuses the
   *  first field that fails. */
  private requestSubmit(): void {
    const controls = this.controls;
    if (controls === null || this.isLocked() || this.isUrlMode()) return;
    this.draft.attempted = true;
    // The controls are the truth (a browser may fill a field without an input event).
    for (const c of controls.fields) this.draft.values.set(c.field.name, c.read());
    const invalid = controls.fields.filter((c) => this.showCheck(c.field.name) !== null);
    const first = invalid[0];
    if (first) {
      first.focusTarget().focus();
      return;
    }
    this.send("submit");
  }

  private openPage(): void {
    if (this.controls === null || this.isLocked()) return;
    const url = this.url();
    if (openableUrl(url) === null) return;
    window.open(url, "_blank", "noopener,noreferrer");
    this.send("submit");
  }

  private send(action: FormResponse["action"]): void {
    if (this.controls === null || this.isLocked()) return;
    const values = action === "submit" && !this.isUrlMode() ? collectValues(this.fields, this.draft.values) : {};
    const response: FormResponse = { action, values, ...this.stamp() };
    this.refusal.sending();
    this.sendResponse(response);
  }

  // -- keyboard ----------------------------------------------------------------------------------

  protected onKey(event: KeyboardEvent, target: HTMLElement): void {
    if (event.key === "Escape") {
      event.preventDefault();
      this.send("dismiss");
      return;
    }
    if (event.key !== "Enter") return;
    // A focused button does what it says; Enter never opens the page from anywhere else.
    if (target instanceof HTMLButtonElement || target instanceof HTMLTextAreaElement) return;
    event.preventDefault();
    if (target instanceof HTMLInputElement) this.requestSubmit();
  }
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
