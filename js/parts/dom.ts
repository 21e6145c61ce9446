// Small DOM helpers shared by every form. Model text only ever goes through textContent:
// it is LLM output, never HTML.

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An element holding model text: may be any language, any direction, any length. */
export function textEl<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text: string,
): HTMLElementTagNameMap[K] {
  const node = el(tag, className, text);
  node.dir = "auto";
  return node;
}

export function button(className: string, label: string, onClick: () => void): HTMLButtonElement {
  const node = el("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

export function headerChip(header: string): HTMLElement | null {
  return header.trim() === "" ? null : textEl("span", "nbask-chip", header);
}

export function setFlag(node: HTMLElement, name: string, on: boolean): void {
  if (on) node.setAttribute(name, "true");
  else node.removeAttribute(name);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  // An object or array where text belongs (model values are JSON): shown as its JSON.
  return typeof value === "object" && value !== null ? JSON.stringify(value) : "";
}

/** Random hex id. getRandomValues works on plain-http Jupyter servers, randomUUID does not. */
export function randomId(): string {
  const bytes = new Uint8Array(6);
  // The DOM types promise Web Crypto; a host without it still gets an id.
  const crypto = globalThis.crypto as Crypto | undefined;
  if (crypto !== undefined) {
    crypto.getRandomValues(bytes);
  } else {
    bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
  }
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when the person is typing somewhere else on the page (a cell editor, a search box). */
export function isTextEntry(node: Element | null): boolean {
  if (!node) return false;
  if (node instanceof HTMLTextAreaElement) return true;
  if (node instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].includes(node.type);
  }
  return node.closest('[contenteditable=""], [contenteditable="true"], [contenteditable="plaintext-only"]') !== null;
}

/** True only when layout says the element is entirely off screen; no layout (size 0) = unknown. */
export function isOutOfView(node: HTMLElement): boolean {
  const rect = node.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return false;
  return rect.bottom < 0 || rect.top > window.innerHeight;
}

/** A live character count for a capped text field: shown once the text nears the limit, so
 *  the person sees why their paste stopped, and announced politely when it is reached.
 *  Call `refresh` after setting the field's value from code. */
export function charCounter(
  field: HTMLInputElement | HTMLTextAreaElement,
  limit: number,
): { element: HTMLElement; refresh: () => void } {
  field.maxLength = limit;
  const element = el("span", "nbask-counter");
  element.setAttribute("aria-live", "polite");
  const refresh = (): void => {
    const used = field.value.length;
    element.hidden = used < limit * 0.8;
    element.textContent = used >= limit ? `${used} / ${limit} characters: limit reached` : `${used} / ${limit}`;
  };
  field.addEventListener("input", refresh);
  refresh();
  return { element, refresh };
}

/** Puts `value` into a text field only if it differs; a field the person has focus in keeps
 *  its caret and selection (another view's draft arriving must not move them). */
export function setFieldValue(field: HTMLInputElement | HTMLTextAreaElement, value: string): boolean {
  if (field.value === value) return false;
  if (document.activeElement !== field) {
    field.value = value;
    return true;
  }
  const start = field.selectionStart;
  const end = field.selectionEnd;
  field.value = value;
  if (start !== null && end !== null) {
    try {
      field.setSelectionRange(Math.min(start, value.length), Math.min(end, value.length));
    } catch {
      // Inputs such as email and number have no selection to keep.
    }
  }
  return true;
}
