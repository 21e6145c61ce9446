// The header row every kind starts its pending form with: the title, and the countdown the
// shell keeps (js/shell/countdown.ts). The shell retitles it ("Answer anyway") through .nbask-title.
import { el } from "./dom";

export function headerRow(title: string, timer: HTMLElement): HTMLElement {
  const top = el("div", "nbask-top");
  top.append(el("span", "nbask-title", title), timer);
  return top;
}
