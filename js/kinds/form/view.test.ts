// The form kind: every field type by role and name, defaults, required marks, client checks,
// the response written on Submit and Dismiss, Escape and Enter, the kernel's refusal, URL mode,
// hostile text, the resolved block, axe, and the danger colour's contrast.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { getByRole, queryByRole, within } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import axe from "axe-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FormField, FormResponse, Model } from "../../contract/contract";
import { MAX_FIELD_CHARS } from "../../contract/contract";
import { FIELD_ERRORS, collectValues, fieldError, readFields, toDateTimeLocal } from "./fields";
import { FORM_TEXT, showValue } from "./view";
import { FakeModel, field, keydown, responseWrites, sent, unmountAll, view } from "../../testing/harness";

const here = dirname(fileURLToPath(import.meta.url));

afterEach(() => {
  unmountAll();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

const SIZES = [
  { value: "s", title: "Small" },
  { value: "m", title: "Medium" },
  { value: "l", title: "Large" },
];
const TOPPINGS = [
  { value: "cheese", title: "Cheese" },
  { value: "ham", title: "Ham" },
  { value: "olives", title: "Olives" },
];

/** One field of every type and format. */
const ALL: FormField[] = [
  field({ name: "name", type: "string", title: "Your name", required: true, description: "As on your badge.", min_length: 2, max_length: 40 }),
  field({ name: "email", type: "string", title: "Email", format: "email" }),
  field({ name: "site", type: "string", title: "Website", format: "uri" }),
  field({ name: "day", type: "string", title: "Start date", format: "date" }),
  field({ name: "at", type: "string", title: "Meeting time", format: "date-time" }),
  field({ name: "seats", type: "integer", title: "Seats", required: true, minimum: 1, maximum: 10 }),
  field({ name: "budget", type: "number", title: "Budget", minimum: 0 }),
  field({ name: "agree", type: "boolean", title: "Send me updates" }),
  field({ name: "size", type: "choice", title: "Size", required: true, options: SIZES }),
  field({ name: "toppings", type: "multi_choice", title: "Toppings", options: TOPPINGS, max_items: 2 }),
];

const MESSAGE = "Please book the room.\nThe agent needs a few details.";

function formModel(fields: FormField[] = ALL, extra: Partial<Model> = {}): FakeModel {
  return new FakeModel({ _kind: "form", _message: MESSAGE, _fields: fields, ...extra });
}

function openForm(fields: FormField[] = ALL, extra: Partial<Model> = {}) {
  const user = userEvent.setup();
  const model = formModel(fields, extra);
  return { user, model, ...view(model) };
}

/** The one response the front end sent. */
function response(model: FakeModel): FormResponse {
  return sent(model) as unknown as FormResponse;
}

function textbox(root: HTMLElement, name: string): HTMLInputElement {
  return getByRole<HTMLInputElement>(root, "textbox", { name });
}

/** The element a control's aria-describedby names, whose text says what is wrong. */
function describedText(control: HTMLElement): string {
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" | ");
}

function button(root: HTMLElement, name: string): HTMLButtonElement {
  return getByRole<HTMLButtonElement>(root, "button", { name });
}

/** Fills the required fields with valid values. */
async function fillRequired(user: ReturnType<typeof userEvent.setup>, root: HTMLElement): Promise<void> {
  await user.type(textbox(root, "Your name"), "Ada");
  await user.type(getByRole(root, "spinbutton", { name: "Seats" }), "3");
  await user.click(getByRole(root, "radio", { name: "Medium" }));
}

describe("form fields", () => {
  it("renders every field type as a labelled native control, found by role and name", () => {
    const { root } = openForm();
    expect(root.dataset.kind).toBe("form");
    expect(root.textContent).toContain(FORM_TEXT.title);
    expect(root.querySelector(".nbask-form-message")?.textContent).toBe(MESSAGE);

    expect(textbox(root, "Your name").type).toBe("text");
    expect(textbox(root, "Email").type).toBe("email");
    expect(textbox(root, "Website").type).toBe("url");
    expect(root.querySelector<HTMLInputElement>(`#${getLabelFor(root, "Start date")}`)?.type).toBe("date");
    expect(root.querySelector<HTMLInputElement>(`#${getLabelFor(root, "Meeting time")}`)?.type).toBe("datetime-local");

    const seats = getByRole<HTMLInputElement>(root, "spinbutton", { name: "Seats" });
    expect([seats.type, seats.step, seats.min, seats.max]).toEqual(["number", "1", "1", "10"]);
    const budget = getByRole<HTMLInputElement>(root, "spinbutton", { name: "Budget" });
    expect([budget.step, budget.min, budget.max]).toEqual(["any", "0", ""]);

    expect(getByRole<HTMLInputElement>(root, "checkbox", { name: "Send me updates" }).type).toBe("checkbox");

    const size = getByRole(root, "group", { name: "Size" });
    expect(size.tagName).toBe("FIELDSET");
    expect(within(size).getAllByRole("radio").map((r) => (r as HTMLInputElement).value)).toEqual(["s", "m", "l"]);
    for (const { title } of SIZES) within(size).getByRole("radio", { name: title });

    const toppings = getByRole(root, "group", { name: "Toppings" });
    expect(toppings.tagName).toBe("FIELDSET");
    for (const { title } of TOPPINGS) within(toppings).getByRole("checkbox", { name: title });
    expect(describedText(toppings)).toBe("Choose up to 2");

    for (const name of [FORM_TEXT.submit, FORM_TEXT.dismiss]) button(root, name);
    expect(queryByRole(root, "button", { name: FORM_TEXT.open })).toBeNull();
    expect(queryByRole(root, "alert")).toBeNull();
  });

  it("shows descriptions as accessible descriptions and caps text at max_length", () => {
    const { root } = openForm();
    const name = textbox(root, "Your name");
    expect(describedText(name)).toBe("As on your badge.");
    expect(name.maxLength).toBe(40);
    expect(textbox(root, "Email").maxLength).toBe(MAX_FIELD_CHARS);
  });

  it("marks required fields with an aria-hidden star and required / aria-required", () => {
    const { root } = openForm();
    const name = textbox(root, "Your name");
    expect(name.required).toBe(true);
    expect(root.querySelector(`label[for="${name.id}"] .nbask-required`)?.getAttribute("aria-hidden")).toBe("true");
    expect(getByRole<HTMLInputElement>(root, "spinbutton", { name: "Seats" }).required).toBe(true);
    const size = getByRole(root, "group", { name: "Size" });
    expect(within(size).getAllByRole<HTMLInputElement>("radio").every((r) => r.required)).toBe(true);
    expect(size.querySelector("legend .nbask-required")?.textContent).toBe("*");
    expect(within(getByRole(root, "group", { name: "Toppings" })).getAllByRole<HTMLInputElement>("checkbox").some((c) => c.required)).toBe(false);
    expect(textbox(root, "Email").required).toBe(false);
    expect(root.querySelectorAll(".nbask-required")).toHaveLength(3);
    // The star is not part of any accessible name.
    expect(getByRole(root, "textbox", { name: "Your name" })).toBe(name);
  });

  it("prefills defaults, a date-time cut to what datetime-local takes", () => {
    const fields: FormField[] = [
      field({ name: "name", type: "string", default: "Ada" }),
      field({ name: "day", type: "string", format: "date", default: "2026-11-23" }),
      field({ name: "at", type: "string", format: "date-time", default: "2026-11-23T10:30:00+02:00" }),
      field({ name: "n", type: "integer", default: 4 }),
      field({ name: "yes", type: "boolean", default: true }),
      field({ name: "size", type: "choice", options: SIZES, default: "l" }),
      field({ name: "top", type: "multi_choice", options: TOPPINGS, default: ["olives", "cheese"] }),
    ];
    const { root } = openForm(fields);
    expect(textbox(root, "name").value).toBe("Ada");
    expect(root.querySelector<HTMLInputElement>('input[type="date"]')?.value).toBe("2026-11-23");
    expect(root.querySelector<HTMLInputElement>('input[type="datetime-local"]')?.value).toBe("2026-11-23T10:30");
    expect(getByRole<HTMLInputElement>(root, "spinbutton", { name: "n" }).value).toBe("4");
    expect(getByRole<HTMLInputElement>(root, "checkbox", { name: "yes" }).checked).toBe(true);
    expect(getByRole<HTMLInputElement>(root, "radio", { name: "Large" }).checked).toBe(true);
    const top = getByRole(root, "group", { name: "top" });
    expect(within(top).getAllByRole<HTMLInputElement>("checkbox").filter((c) => c.checked).map((c) => c.value)).toEqual(["cheese", "olives"]);
  });

  it("focuses the first control of a freshly shown form", () => {
    const { root } = openForm();
    expect(document.activeElement).toBe(textbox(root, "Your name"));
  });

  it("renders hostile titles, descriptions, options and the message as text", () => {
    const hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>";
    const fields = [
      field({ name: "a", type: "string", title: hostile, description: hostile }),
      field({ name: "b", type: "choice", title: `${hostile} 2`, options: [{ value: hostile, title: hostile }] }),
    ];
    const { root } = openForm(fields, { _message: hostile });
    expect(root.querySelector("img, script")).toBeNull();
    expect(textbox(root, hostile)).toBeTruthy();
    expect(getByRole<HTMLInputElement>(root, "radio", { name: hostile }).type).toBe("radio");
    expect(root.querySelector(".nbask-form-message")?.textContent).toBe(hostile);
    expect(root.querySelector(".nbask-field-desc")?.textContent).toBe(hostile);
  });

  it("survives malformed fields", () => {
    const fields = [
      null,
      "nope",
      { name: "" },
      { name: "x", type: "mystery", options: "no", minimum: "3", default: { a: 1 } },
      { name: "x", type: "boolean" },
      { name: "c", type: "choice", options: [null, { value: 1 }, { value: 1, title: "dup" }] },
    ] as unknown as FormField[];
    const { root } = openForm(fields);
    expect(textbox(root, "x").value).toBe("");
    expect(within(getByRole(root, "group", { name: "c" })).getAllByRole("radio")).toHaveLength(2);
    expect(readFields("nope")).toEqual([]);
  });
});

/** The id of the control a visible label names, for inputs without an ARIA role (date). */
function getLabelFor(root: HTMLElement, text: string): string {
  const label = [...root.querySelectorAll("label")].find((l) => l.querySelector(".nbask-field-title")?.textContent === text);
  return label?.htmlFor ?? "";
}

describe("client checks", () => {
  it("block Submit, show every message next to its field and focus the first invalid control", async () => {
    const { user, root, model } = openForm();
    await user.type(textbox(root, "Email"), "not-an-email");
    await user.click(button(root, FORM_TEXT.submit));
    expect(responseWrites(model)).toEqual([]);

    const name = textbox(root, "Your name");
    expect(document.activeElement).toBe(name);
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(name)).toContain(FIELD_ERRORS.required);
    const email = textbox(root, "Email");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(email)).toBe(FIELD_ERRORS.email);
    const size = getByRole(root, "group", { name: "Size" });
    expect(size.getAttribute("aria-invalid")).toBe("true");
    expect(size.textContent).toContain(FIELD_ERRORS.chooseOne);
    expect(textbox(root, "Website").hasAttribute("aria-invalid")).toBe(false);
  });

  it("show a field's message once it was changed and left, and clear it when fixed", async () => {
    const { user, root } = openForm();
    const name = textbox(root, "Your name");
    await user.type(name, "A");
    expect(name.hasAttribute("aria-invalid")).toBe(false);
    await user.tab();
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(name)).toContain(FIELD_ERRORS.minLength(2, 1));
    await user.type(name, "da");
    expect(name.hasAttribute("aria-invalid")).toBe(false);
    expect(describedText(name)).toBe("As on your badge.");
  });

  it("wait for the click that left a field before showing its message, so nothing moves under it", () => {
    vi.useFakeTimers();
    try {
      const { root } = openForm();
      const name = textbox(root, "Your name");
      name.focus();
      name.value = "A";
      name.dispatchEvent(new Event("input", { bubbles: true }));
      const small = getByRole(root, "radio", { name: "Small" });
      small.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true }));
      name.dispatchEvent(new Event("change", { bubbles: true }));
      name.blur();
      expect(name.hasAttribute("aria-invalid")).toBe(false);
      window.dispatchEvent(new PointerEvent("pointerup"));
      small.click();
      expect((small as HTMLInputElement).checked).toBe(true);
      vi.runAllTimers();
      expect(name.getAttribute("aria-invalid")).toBe("true");
    } finally {
      vi.useRealTimers();
    }
  });

  it("say nothing about a field merely tabbed through", async () => {
    const { user, root } = openForm();
    await user.tab();
    await user.tab();
    expect(root.querySelector("[aria-invalid]")).toBeNull();
  });

  it("check numbers: integral, within bounds", async () => {
    const { user, root, model } = openForm();
    await fillRequired(user, root);
    const seats = getByRole<HTMLInputElement>(root, "spinbutton", { name: "Seats" });
    // The bounds are its description before anything is wrong, and stay beside the message.
    expect(describedText(seats)).toBe("1–10");
    await user.clear(seats);
    await user.type(seats, "2.5");
    await user.click(button(root, FORM_TEXT.submit));
    expect(describedText(seats)).toBe(`1–10 | ${FIELD_ERRORS.integer}`);
    await user.clear(seats);
    await user.type(seats, "11");
    expect(describedText(seats)).toBe(`1–10 | ${FIELD_ERRORS.maximum(10)}`);
    expect(responseWrites(model)).toEqual([]);
  });

  it("check multi choices' item counts", async () => {
    const { user, root, model } = openForm();
    await fillRequired(user, root);
    for (const name of ["Cheese", "Ham", "Olives"]) await user.click(getByRole(root, "checkbox", { name }));
    const group = getByRole(root, "group", { name: "Toppings" });
    expect(group.getAttribute("aria-invalid")).toBe("true");
    expect(describedText(group)).toContain(FIELD_ERRORS.maxItems(2));
    await user.click(button(root, FORM_TEXT.submit));
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(getByRole(root, "checkbox", { name: "Cheese" }));
  });

  it("cover every rule", () => {
    const text = field({ name: "t", type: "string", required: true, min_length: 2, max_length: 3 });
    expect(fieldError(text, "  ")).toBe(FIELD_ERRORS.required);
    expect(fieldError(text, "😀😀")).toBeNull(); // code points, not UTF-16 units
    expect(fieldError(text, "abcd")).toBe(FIELD_ERRORS.maxLength(3, 4));
    const email = field({ name: "e", type: "string", format: "email" });
    expect(fieldError(email, "")).toBeNull();
    expect(fieldError(email, "a@b.co")).toBeNull();
    expect(fieldError(email, "a@b")).toBe(FIELD_ERRORS.email);
    const uri = field({ name: "u", type: "string", format: "uri" });
    expect(fieldError(uri, "https://example.com/x")).toBeNull();
    expect(fieldError(uri, "example.com")).toBe(FIELD_ERRORS.uri);
    const date = field({ name: "d", type: "string", format: "date" });
    expect(fieldError(date, "2024-02-29")).toBeNull();
    expect(fieldError(date, "2023-02-29")).toBe(FIELD_ERRORS.date);
    const at = field({ name: "a", type: "string", format: "date-time" });
    expect(fieldError(at, "2026-11-23T10:30")).toBeNull();
    expect(fieldError(at, "2026-11-23T24:30")).toBe(FIELD_ERRORS.dateTime);
    const number = field({ name: "n", type: "number", minimum: 0.5 });
    expect(fieldError(number, "0.5")).toBeNull();
    expect(fieldError(number, "0.4")).toBe(FIELD_ERRORS.minimum(0.5));
    expect(fieldError(number, "\u0000")).toBe(FIELD_ERRORS.number);
    const multi = field({ name: "m", type: "multi_choice", options: TOPPINGS, min_items: 2 });
    expect(fieldError(multi, [])).toBeNull();
    expect(fieldError(multi, ["ham"])).toBe(FIELD_ERRORS.minItems(2));
    expect(fieldError({ ...multi, required: true }, [])).toBe(FIELD_ERRORS.minItems(2));
    expect(toDateTimeLocal("2026-11-23T10:30Z")).toBe("2026-11-23T10:30");
    expect(toDateTimeLocal("2026-11-23T10:30:15-05:00")).toBe("2026-11-23T10:30:15");
    expect(toDateTimeLocal("2026-11-23")).toBe("2026-11-23T00:00");
    expect(collectValues([field({ name: "__proto__", type: "string" })], new Map([["__proto__", "x"]]))).toEqual(
      JSON.parse('{"__proto__": "x"}'),
    );
  });
});

describe("sending", () => {
  it("Submit writes the typed values, omitting empty optional fields", async () => {
    const { user, root, model } = openForm();
    await fillRequired(user, root);
    await user.type(getByRole(root, "spinbutton", { name: "Budget" }), "12.5");
    await user.click(getByRole(root, "checkbox", { name: "Olives" }));
    await user.click(getByRole(root, "checkbox", { name: "Cheese" }));
    const at = root.querySelector<HTMLInputElement>('input[type="datetime-local"]') as HTMLInputElement;
    at.value = "2026-11-23T10:30";
    at.dispatchEvent(new Event("input", { bubbles: true }));
    await user.click(button(root, FORM_TEXT.submit));
    const sent = response(model);
    expect(sent).toEqual({
      action: "submit",
      values: { name: "Ada", at: "2026-11-23T10:30", seats: 3, budget: 12.5, agree: false, size: "m", toppings: ["cheese", "olives"] },
      view_id: expect.any(String) as string,
      sent_at_ms: expect.any(Number) as number,
    });
    expect(typeof sent.values.seats).toBe("number");
    expect(root.dataset.sending).toBe("true");
    expect(button(root, FORM_TEXT.submit).disabled).toBe(true);
  });

  it("Enter in a single-line field tries Submit", async () => {
    const { user, root, model } = openForm();
    await fillRequired(user, root);
    textbox(root, "Email").focus();
    await user.keyboard("{Enter}");
    expect(response(model).values).toMatchObject({ name: "Ada", seats: 3, size: "m", agree: false });
  });

  it("Enter with errors sends nothing and shows them", async () => {
    const { user, root, model } = openForm();
    textbox(root, "Email").focus();
    await user.keyboard("{Enter}");
    expect(responseWrites(model)).toEqual([]);
    expect(document.activeElement).toBe(textbox(root, "Your name"));
  });

  it("Dismiss sends a dismiss without values, invalid fields or not", async () => {
    const { user, root, model } = openForm();
    await user.click(button(root, FORM_TEXT.dismiss));
    expect(response(model)).toMatchObject({ action: "dismiss", values: {} });
  });

  it("Escape dismisses from any field: at once untouched, after Discard with an entry", async () => {
    const { user, root, model } = openForm();
    await user.type(textbox(root, "Email"), "x{Escape}");
    expect(responseWrites(model)).toEqual([]);
    expect(root.querySelector(".nbask-discard")?.textContent).toContain(
      "Discard your answer? Your entry in “Email” will be lost.",
    );
    expect(document.activeElement).toBe(button(root, "Keep editing"));
    await user.click(button(root, "Discard"));
    expect(response(model)).toMatchObject({ action: "dismiss", values: {} });
    const untouched = openForm();
    textbox(untouched.root, "Email").focus();
    await untouched.user.keyboard("{Escape}");
    expect(response(untouched.model)).toMatchObject({ action: "dismiss", values: {} });
  });

  it("keeps the typing across re-renders from the kernel", async () => {
    const { user, root, model } = openForm();
    await user.type(textbox(root, "Your name"), "Ada");
    model.kernelUpdate({ _deadline_ms: Date.now() + 60_000 });
    model.kernelUpdate({ _result: {} });
    expect(textbox(root, "Your name").value).toBe("Ada");
  });
});

describe("the kernel's refusal", () => {
  it("is shown in an alert, the form unlocked with its values, until the person edits", async () => {
    const { user, root, model } = openForm();
    await fillRequired(user, root);
    await user.click(button(root, FORM_TEXT.submit));
    expect(root.dataset.sending).toBe("true");
    const refusal = "field 'seats' (Seats): must be at most 5, got 7";
    model.kernelUpdate({ _error: refusal, _response: {} });
    expect(root.dataset.sending).toBeUndefined();
    expect(getByRole(root, "alert").textContent).toBe(refusal);
    const name = textbox(root, "Your name");
    expect(name.disabled).toBe(false);
    expect(name.value).toBe("Ada");

    await user.type(name, "!");
    expect(queryByRole(root, "alert")).toBeNull();

    // The same refusal after another try is shown again.
    model.set.mockClear();
    model.save_changes.mockClear();
    await user.click(button(root, FORM_TEXT.submit));
    expect(response(model).values).toMatchObject({ name: "Ada!" });
    expect(queryByRole(root, "alert")).toBeNull();
    model.kernelUpdate({ _response: {} });
    expect(getByRole(root, "alert").textContent).toBe(refusal);

    // A new refusal replaces it.
    model.kernelUpdate({ _error: "something else" });
    expect(getByRole(root, "alert").textContent).toBe("something else");
  });

  it("is shown when the view appears after it", () => {
    const { root } = openForm(ALL, { _error: "bad reply" });
    expect(getByRole(root, "alert").textContent).toBe("bad reply");
  });
});

describe("URL mode", () => {
  const URL_ = "https://example.com/oauth/authorize?client_id=abc&redirect_uri=https%3A%2F%2Fexample.org%2Fcb&state=" + "x".repeat(300);

  function openUrl(url: string = URL_) {
    return openForm([], { _url: url, _message: "Sign in to continue." });
  }

  it("shows the message and the URL whole as text, never as a link", () => {
    const { root } = openUrl();
    expect(root.textContent).toContain(FORM_TEXT.urlTitle);
    expect(root.textContent).toContain("Sign in to continue.");
    const address = root.querySelector(".nbask-url");
    expect(address?.textContent).toBe(URL_);
    expect(address?.tagName).toBe("CODE");
    expect(root.querySelector("a")).toBeNull();
    expect(queryByRole(root, "link")).toBeNull();
    expect(root.textContent).toContain("example.com");
    expect(queryByRole(root, "button", { name: FORM_TEXT.submit })).toBeNull();
    expect(document.activeElement).toBe(button(root, FORM_TEXT.decline));
  });

  it("Open opens the page with noopener and sends submit", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const { user, root, model } = openUrl();
    await user.click(button(root, FORM_TEXT.open));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith(URL_, "_blank", "noopener,noreferrer");
    expect(response(model)).toMatchObject({ action: "submit", values: {} });
  });

  it("Decline sends dismiss and opens nothing", async () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const { user, root, model } = openUrl();
    await user.click(button(root, FORM_TEXT.decline));
    expect(response(model)).toMatchObject({ action: "dismiss", values: {} });
    expect(open).not.toHaveBeenCalled();
  });

  it("Enter and Escape never open the page", () => {
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const { root, model } = openUrl();
    const enter = keydown(root.querySelector(".nbask-url") as HTMLElement, "Enter");
    expect(enter.defaultPrevented).toBe(true);
    expect(responseWrites(model)).toEqual([]);
    // Nothing to lose on a page to open: one Escape declines.
    keydown(button(root, FORM_TEXT.decline), "Escape");
    expect(response(model)).toMatchObject({ action: "dismiss" });
    expect(open).not.toHaveBeenCalled();
  });

  it.each(["javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "not a url"])(
    "keeps Open disabled for %s, with a reason",
    async (url) => {
      const open = vi.spyOn(window, "open").mockReturnValue(null);
      const { user, root, model } = openUrl(url);
      const openButton = button(root, FORM_TEXT.open);
      expect(openButton.disabled).toBe(true);
      expect(describedText(openButton)).toBe(FORM_TEXT.unsafeUrl);
      expect(root.querySelector(".nbask-url")?.textContent).toBe(url);
      await user.click(openButton);
      openButton.click();
      expect(open).not.toHaveBeenCalled();
      expect(responseWrites(model)).toEqual([]);
      // Still disabled after the kernel unlocks the form.
      model.kernelUpdate({ _response: {}, _deadline_ms: Date.now() + 60_000 });
      expect(openButton.disabled).toBe(true);
      expect(button(root, FORM_TEXT.decline).disabled).toBe(false);
    },
  );
});

describe("resolved block", () => {
  const values = { name: "Ada", seats: 3, agree: true, size: "m", toppings: ["cheese", "olives"] };

  it("lists each field with the value the kernel accepted, as text", () => {
    const hostile = "<img src=x onerror=alert(1)>";
    const { root } = view(formModel(ALL, { _status: "answered", _result: { values: { ...values, email: hostile }, note: "Thanks." } }));
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Answered");
    expect(root.querySelectorAll("input, button, textarea")).toHaveLength(0);
    expect(root.querySelector("img")).toBeNull();
    expect(root.textContent).toContain(MESSAGE);
    const shown = [...root.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(shown).toEqual([
      ["Your name", "Ada"],
      ["Email", hostile],
      ["Website", "—"],
      ["Start date", "—"],
      ["Meeting time", "—"],
      ["Seats", "3"],
      ["Budget", "—"],
      ["Send me updates", "Yes"],
      ["Size", "Medium"],
      ["Toppings", "Cheese, Olives"],
    ]);
    expect(root.querySelector(".nbask-note")?.textContent).toBe("Note: Thanks.");
  });

  it("shows the status and note of a dismissed form without a value list", () => {
    const { root } = view(formModel(ALL, { _status: "dismissed", _result: { values: {}, note: "Declined." } }));
    expect(root.querySelector(".nbask-status-line")?.textContent).toBe("Dismissed");
    expect(root.querySelector("dl")).toBeNull();
    expect(root.querySelector(".nbask-note")?.textContent).toBe("Note: Declined.");
  });

  it("shows the message and the URL in URL mode", () => {
    const { root } = view(formModel([], { _url: "https://example.com/a", _status: "answered", _result: { values: {}, note: "" } }));
    expect(root.querySelector(".nbask-url")?.textContent).toBe("https://example.com/a");
    expect(root.textContent).toContain(MESSAGE);
    expect(root.querySelector(".nbask-note")).toBeNull();
  });

  it("shows No, empty lists and unknown choices plainly", () => {
    const size = field({ name: "s", type: "choice", options: SIZES });
    expect(showValue(size, "xl")).toBe("xl");
    expect(showValue(field({ name: "b", type: "boolean" }), false)).toBe("No");
    expect(showValue(field({ name: "m", type: "multi_choice", options: TOPPINGS }), [])).toBe("—");
  });
});

// -- accessibility ------------------------------------------------------------------------------

async function seriousViolations(): Promise<string[]> {
  const results = await axe.run(document.body, { rules: { "color-contrast": { enabled: false } } });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

describe("axe", () => {
  it("finds nothing serious in a form with every field type", async () => {
    view(formModel(ALL, { _deadline_ms: Date.now() + 600_000 }));
    expect(await seriousViolations()).toEqual([]);
  });

  it("finds nothing serious with every check shown and the kernel's error", async () => {
    const extras = field({ name: "extras", type: "multi_choice", title: "Extras", required: true, options: TOPPINGS });
    const { root } = view(formModel([...ALL, extras], { _error: "field 'seats': too many" }));
    button(root, FORM_TEXT.submit).click();
    expect(getByRole(root, "group", { name: "Extras" }).getAttribute("aria-invalid")).toBe("true");
    expect(getByRole(root, "group", { name: "Size" }).getAttribute("aria-invalid")).toBe("true");
    expect(await seriousViolations()).toEqual([]);
  });

  it("finds nothing serious in URL mode, safe or not, and in the resolved block", async () => {
    view(formModel([], { _url: "https://example.com" }));
    view(formModel([], { _url: "javascript:alert(1)" }));
    view(formModel(ALL, { _status: "answered", _result: { values: { name: "Ada" } } }));
    expect(await seriousViolations()).toEqual([]);
  });
});

describe("danger colour", () => {
  const css = readFileSync(join(here, "..", "..", "styles", "theme.css"), "utf8");

  function luminance(hex: string): number {
    const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  function palette(name: string): [string, string] {
    const match = new RegExp(`--nbask-${name}:\\s*var\\(--nbask-when-light,\\s*(#[0-9a-f]{6})\\)\\s*var\\(--nbask-when-dark,\\s*(#[0-9a-f]{6})\\)`, "i").exec(css);
    return [match?.[1] ?? "", match?.[2] ?? ""];
  }

  it("reaches 4.5:1 on the background in light and dark", () => {
    const danger = palette("base-danger");
    const bg = palette("base-bg");
    for (const i of [0, 1]) {
      const [hi, lo] = [luminance(danger[i] ?? ""), luminance(bg[i] ?? "")].sort((x, y) => y - x) as [number, number];
      expect((hi + 0.05) / (lo + 0.05)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
