// The alert a kind shows the kernel's refusal of a reply in (js/shell/refusal.ts fills it): hidden
// until there is one, its text any direction.
import { el } from "../parts/dom";

export function alertBox(): HTMLElement {
  const alert = el("div", "nbask-form-error");
  alert.setAttribute("role", "alert");
  alert.dir = "auto";
  alert.hidden = true;
  return alert;
}
