// The form kind: a typed form (text, number, integer, yes/no, one choice, several choices)
// with client-side checks (js/kinds/form/fields.ts), Submit / Dismiss and the kernel's refusal shown in an alert; or, in
// URL mode, a page the person may choose to open, with Open / Decline. The resolved block lists
// each field with the value the kernel accepted.
import type { AnyModel } from "@anywidget/types";
import type { FormField, FormModel, FormResponse } from "../../contract/contract";
import type { RawValue } from "./fields";
import { collectValues, fieldError, initialValue, openableUrl, readFields } from "./fields";
import { asText, button, el, isObject, textEl } from "../../parts/dom";
import { alertBox } from "../../shell/alert";
import { footerRow } from "../../parts/footer";
import { headerRow } from "../../parts/header";
import { formLost } from "../../shell/discard";
import { handleFormKey } from "../../focus/formkeys";
import { type FieldContext, type FieldControls, buildField, setDescribedBy } from "./controls";
import type { FormDraft } from "./draft";
import { emptyFormDraft, formDraftData, reduceFormDraft, restoreFormDraft, restoredValues } from "./draft";
import { KernelRefusal } from "../../shell/refusal";
import { appendResultNote, labelledText, resolvedBlock } from "../../parts/resolved";
import { InteractionView } from "../../shell/shell";

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

interface Controls {
  fields: FieldControls[];
  alert: HTMLElement;
  submit: HTMLButtonElement | null;
  open: HTMLButtonElement | null;
  decline: HTMLButtonElement | null;
}

export class FormView extends InteractionView<FormModel> {
  private fields: FormField[] = [];
  private draft: FormDraft = emptyFormDraft([]);
  private controls: Controls | null = null;
  /** The kernel's error was put away by the person editing or sending again. */
  private readonly refusal = new KernelRefusal();
  /** A pointer is pressed inside the form: checks of fields it left wait for its release. */
  private pointerHeld = false;
  private readonly leftWhileHeld = new Set<string>();

  constructor(model: AnyModel<FormModel>, host: HTMLElement) {
    super(model, host, "form", ["_message", "_fields", "_url", "_error"]);
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
    return asText(this.model.get("_url"));
  }

  private message(): string {
    return asText(this.model.get("_message"));
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
      asText(this.model.get("_request_id")),
      this.message(),
      this.url(),
      JSON.stringify(readFields(this.model.get("_fields"))),
    ]);
  }

  protected resetDraft(): void {
    this.fields = this.isUrlMode() ? [] : readFields(this.model.get("_fields"));
    this.draft = emptyFormDraft(this.fields);
    this.controls = null;
    this.refusal.reset();
  }

  protected draftData(): Record<string, unknown> {
    return formDraftData(this.draft);
  }

  protected applyDraft(data: Record<string, unknown>): void {
    // Only what the person changed comes back; the rest keeps the kernel's defaults.
    this.draft = restoreFormDraft(this.draft, this.fields, data);
    for (const [name, value] of restoredValues(this.fields, data)) {
      this.controls?.fields.find((c) => c.field.name === name)?.write(value);
    }
    for (const c of this.controls?.fields ?? []) this.showCheck(c.field.name);
  }

  /** The fields whose value differs from what the form started with (none in URL mode). */
  protected discardMessage(): string | null {
    const same = (a: RawValue | undefined, b: RawValue): boolean => JSON.stringify(a) === JSON.stringify(b);
    const changed = this.fields.filter((f) => this.draft.dirty.has(f.name) && !same(this.draft.values.get(f.name), initialValue(f)));
    return formLost(changed.map((f) => f.title.trim() || f.name));
  }

  /** Dismiss, Decline and Escape: at once when nothing was entered, else after asking. */
  private dismiss(): void {
    this.requestDismiss(() => this.send("dismiss"));
  }

  protected waitingText(): string {
    return this.message();
  }

  protected refreshForm(locked: boolean): void {
    const controls = this.controls;
    if (controls === null) return;
    if (controls.open) controls.open.disabled = locked || openableUrl(this.url()) === null;
    this.refusal.update(this.controls?.alert, asText(this.model.get("_error")), this.isSending());
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
    const top = headerRow(urlMode ? FORM_TEXT.urlTitle : FORM_TEXT.title, this.makeTimer());
    const message = textEl("p", "nbask-form-message", this.message());
    message.hidden = this.message() === "";

    const alert = alertBox();
    const footer = footerRow(urlMode ? FORM_TEXT.urlKeys : FORM_TEXT.keys, this.makeSendingNote(), []);

    if (urlMode) {
      const { box, open, decline } = this.buildUrl();
      footer.append(open, decline);
      element.append(top, message, box, alert, footer);
      this.controls = { fields: [], alert, submit: null, open, decline };
    } else {
      const fields = this.fields.map((field, fi) => buildField(this.fieldContext, field, fi));
      const submit = button("nbask-button nbask-primary", FORM_TEXT.submit, () => this.requestSubmit());
      const dismiss = button("nbask-button", FORM_TEXT.dismiss, () => this.dismiss());
      footer.append(submit, dismiss);
      const list = el("div", "nbask-fields");
      list.append(...fields.map((f) => f.wrap));
      element.append(top, message, list, alert, footer);
      this.controls = { fields, alert, submit, open: null, decline: null };
    }
    return element;
  }

  /** URL mode: the address whole, as selectable text, and what Open would do. */
  /** What a field's builders need from the view. */
  private readonly fieldContext: FieldContext = {
    id: (suffix) => this.domId(suffix),
    value: (name) => this.draft.values.get(name),
    shown: (name, value) => (this.draft = reduceFormDraft(this.draft, { type: "show", name, value })),
    edit: (name, value, commit) => this.edit(name, value, commit),
    leave: (name) => this.leave(name),
  };

  private buildUrl(): { box: HTMLElement; open: HTMLButtonElement; decline: HTMLButtonElement } {
    const url = this.url();
    const box = el("div", "nbask-url-box");
    const label = el("div", "nbask-url-label", FORM_TEXT.urlLabel);
    // Never a link: the page opens only from the Open button.
    const address = el("code", "nbask-url", url);
    address.dir = "ltr";
    box.append(label, address);
    const open = button("nbask-button nbask-primary", FORM_TEXT.open, () => this.openPage());
    const decline = button("nbask-button", FORM_TEXT.decline, () => this.dismiss());
    const parsed = openableUrl(url);
    if (parsed === null) {
      const why = el("p", "nbask-url-note", FORM_TEXT.unsafeUrl);
      why.id = this.domId("url-note");
      open.setAttribute("aria-describedby", why.id);
      open.disabled = true;
      box.append(why);
    } else {
      // The host as the browser reads it (punycode included), so a look-alike address shows.
      box.append(labelledText("p", "nbask-url-site", FORM_TEXT.site, parsed.host, { dir: false }));
    }
    return { box, open, decline };
  }

  protected buildResolved(status: string): HTMLElement {
    this.controls = null;
    const block = resolvedBlock("nbask-resolved nbask-form-kind", this.statusLine(status));
    const message = this.message();
    if (message !== "") block.append(textEl("p", "nbask-form-message", message));

    const result = this.model.get("_result");
    const outcome = isObject(result) ? result : {};
    const url = this.url();
    if (url !== "") {
      const address = el("code", "nbask-url", url);
      address.dir = "ltr";
      block.append(address);
    } else if (status === "answered") {
      const values = isObject(outcome.values) ? outcome.values : {};
      const list = el("dl", "nbask-resolved-list");
      for (const field of readFields(this.model.get("_fields"))) {
        const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
        list.append(
          textEl("dt", "nbask-resolved-question", field.title),
          textEl("dd", "nbask-resolved-answer", showValue(field, value)),
        );
      }
      if (list.childElementCount > 0) block.append(list);
    }
    appendResultNote(block, asText(outcome.note));
    return block;
  }

  // -- checks ----------------------------------------------------------------------------------

  /** The person changed a field: keep it in the draft, put away the kernel's error, and
   *  re-check the field if its check is shown. */
  private edit(name: string, value: RawValue, commit: boolean): void {
    this.draft = reduceFormDraft(this.draft, { type: "edit", name, value, commit });
    this.draftChanged();
    this.refusal.putAway(this.controls?.alert, asText(this.model.get("_error")), this.isSending());
    if (this.pointerHeld) this.leftWhileHeld.add(name);
    else this.showCheck(name);
  }

  private leave(name: string): void {
    const next = reduceFormDraft(this.draft, { type: "leave", name });
    if (next === this.draft) return;
    this.draft = next;
    this.draftChanged();
    if (this.pointerHeld) this.leftWhileHeld.add(name);
    else this.showCheck(name);
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
    setDescribedBy(controls, shown !== null);
    return error;
  }

  // -- actions ---------------------------------------------------------------------------------

  /** Submit: sends when every field passes its check; else shows every check and focuses the
   *  first field that fails. */
  private requestSubmit(): void {
    const controls = this.controls;
    if (controls === null || this.isLocked() || this.isUrlMode()) return;
    this.draft = reduceFormDraft(this.draft, { type: "attempt" });
    this.draftChanged();
    // The controls are the truth (a browser may fill a field without an input event).
    for (const c of controls.fields) {
      this.draft = reduceFormDraft(this.draft, { type: "show", name: c.field.name, value: c.read() });
    }
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
    // Enter in a field submits; it never opens the page.
    handleFormKey(event, target, {
      escape: () => this.dismiss(),
      enter: (on) => {
        if (on instanceof HTMLInputElement) this.requestSubmit();
      },
    });
  }
}
