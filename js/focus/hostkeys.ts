// Which keys the notebook host keeps while focus is in the widget. The widget owns the keys it
// documents (digits, arrows, Space, Enter, Escape, Tab, and typing in its text boxes); the
// notebook keeps running a cell (Shift/Ctrl/Alt+Enter), its Ctrl/Cmd shortcuts (save, the
// command palette) and, when no text box has focus, interrupt (I, I).
//
// JupyterLab handles its shortcuts from keydown events bubbling to the document, so the widget
// stops the keys it owns at its root. Notebook 7 handles them while they are captured on their
// way down, before the widget sees them, and skips an element under `data-lm-suppress-shortcuts`
// (the focused element itself too: a binding on `:focus` matches it before any ancestor): a
// window-level capture listener puts that attribute on the key's target for the keys the widget
// owns, just for that key, so only the host's keys reach the notebook.
import { isTextEntry } from "../parts/dom";

/** Keys that keep their meaning inside the widget even with Ctrl/Cmd held: text editing and
 *  caret and selection movement; with Shift too only redo, paste as text and selection (so
 *  Ctrl+Shift+C, JupyterLab's command palette, is the host's). */
const KEPT_WITH_CTRL = new Set(["a", "c", "v", "x", "z", "y", "backspace", "delete", "home", "end", " "]);
const KEPT_WITH_CTRL_SHIFT = new Set(["v", "z", "home", "end"]);

export const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

export const SUPPRESS_ATTRIBUTE = "data-lm-suppress-shortcuts";

/** Ctrl/Cmd shortcuts of the host (save, command palette, Ctrl+Enter runs the cell). */
export function isHostShortcut(event: KeyboardEvent): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return false;
  const key = event.key.toLowerCase();
  const kept = event.shiftKey ? KEPT_WITH_CTRL_SHIFT : KEPT_WITH_CTRL;
  return !kept.has(key) && !key.startsWith("arrow") && !["control", "meta", "shift"].includes(key);
}

/** Whether a keydown inside the widget belongs to the notebook rather than to the widget. */
export function isHostKey(event: KeyboardEvent): boolean {
  // Keys that finish an IME composition (keyCode 229 in Safari) are the input method's.
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- no standard property says this
  if (event.isComposing || event.keyCode === 229) return false;
  if (isHostShortcut(event)) return true;
  // Run the cell: Shift+Enter, Alt+Enter (Ctrl/Cmd+Enter is a host shortcut above).
  if (event.key === "Enter" && (event.shiftKey || event.altKey) && !event.ctrlKey && !event.metaKey) return true;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  // Interrupt (I, I) when the person is not typing in one of the widget's text boxes.
  const target = event.target instanceof Element ? event.target : null;
  return (event.key === "i" || event.key === "I") && !isTextEntry(target);
}

const onCapturedKeydown = (event: KeyboardEvent): void => {
  const target = event.target;
  if (!(target instanceof Element) || target.closest(".nbask") === null) return;
  if (isHostKey(event)) {
    target.removeAttribute(SUPPRESS_ATTRIBUTE);
    return;
  }
  target.setAttribute(SUPPRESS_ATTRIBUTE, "true");
  // Only for this key: the next one decides again, and nothing is left behind.
  setTimeout(() => target.removeAttribute(SUPPRESS_ATTRIBUTE), 0);
};

// anywidget loads this module once per model, so the mark that the gate is in place lives on
// the page, not in the module: a batch of twenty cards adds one listener, not twenty.
const GATE = Symbol.for("nbask.shortcut-gate.v1");

/** Installs the capture-phase gate once per page (every view, of every module copy, shares it). */
export function installShortcutGate(): void {
  if (typeof window === "undefined") return;
  const page = window as { [GATE]?: true };
  if (page[GATE]) return;
  page[GATE] = true;
  window.addEventListener("keydown", onCapturedKeydown, true);
}
