// Which keys the notebook host keeps while focus is in the widget: Ctrl/Cmd shortcuts (save,
// the command palette) bubble on, except the ones a form or a text field uses itself.

/** Keys that keep their meaning inside the widget even with Ctrl/Cmd held: text editing,
 *  caret and selection movement, and Enter (Ctrl+Enter would run the cell again). */
const KEPT_WITH_CTRL = new Set(["a", "c", "v", "x", "z", "y", "enter", "backspace", "delete", "home", "end", " "]);

export const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock"]);

export function isHostShortcut(event: KeyboardEvent): boolean {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return false;
  const key = event.key.toLowerCase();
  return !KEPT_WITH_CTRL.has(key) && !key.startsWith("arrow") && key !== "control" && key !== "meta";
}
