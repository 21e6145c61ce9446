// Who may answer here, and who answered: a request with approvers (the `_approvers` trait) can be
// answered only in a page whose person is one of them and whose identity the Jupyter server
// vouches for (nbask's server extension; `_verifies`). Everywhere else the card stays read-only
// and says why: "Waiting for alice or bob", or that this page cannot prove who its person is.
// The kernel decides (src/nbask/widget/sender.py); this only keeps people from clicking in vain.
// The resolved block's "by alice" gains how that is known: "(verified)" or "(reported)".
import type { AnyModel } from "@anywidget/types";
import type { BaseModel } from "../contract/contract";
import { asText, el, isObject } from "../parts/dom";
import { showsName } from "../parts/wording";
import { knownUsername } from "./identity";

export const APPROVERS_TEXT = {
  /** "alice", "alice or bob", "alice, bob or carol". */
  waitingFor: (names: readonly string[]): string => `Waiting for ${orList(names)}`,
  onlyThem: (names: readonly string[]): string => `Only ${orList(names)} can answer this request.`,
  cannotVerify:
    "nbask cannot verify who you are here (this page's server does not run nbask's extension), so this request cannot be answered here: answer it in JupyterLab or Notebook 7 on a server with nbask installed, or in the inbox.",
  marks: { verified: "verified", reported: "reported" } as Record<string, string>,
} as const;

function orList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1] ?? ""}`;
}

type Model = Pick<AnyModel<BaseModel>, "get">;

/** The approvers the kernel named ([] = anyone may answer). */
export function approversOf(model: Model): string[] {
  const raw: unknown = model.get("_approvers");
  return Array.isArray(raw) ? raw.filter((name): name is string => typeof name === "string" && name !== "") : [];
}

/** Why this page may not answer (the sentences the card shows), or null when it may. */
export function notAnswerableHere(model: Model, username: string | null = knownUsername()): string | null {
  const approvers = approversOf(model);
  if (approvers.length === 0) return null;
  if (model.get("_verifies") !== true) return `${APPROVERS_TEXT.onlyThem(approvers)} ${APPROVERS_TEXT.cannotVerify}`;
  if (username !== null && approvers.includes(username)) return null;
  return `${APPROVERS_TEXT.waitingFor(approvers)}. ${APPROVERS_TEXT.onlyThem(approvers)}`;
}

/** Shows (or takes away) the read-only note at the top of the pending form. */
export function showAnswerability(form: HTMLElement, model: Model): void {
  const why = notAnswerableHere(model);
  let note = form.querySelector<HTMLElement>(":scope > .nbask-approvers");
  if (why === null) {
    note?.remove();
    form.removeAttribute("data-read-only");
    return;
  }
  if (note === null) {
    note = el("p", "nbask-approvers");
    note.setAttribute("role", "status");
    form.prepend(note);
  }
  if (note.textContent !== why) note.textContent = why;
  form.dataset.readOnly = "true";
}

/** " by alice (verified)" for the status line, "" where it names no one (js/parts/wording.ts). */
export function answeredByText(model: Model): string {
  const result: unknown = model.get("_result");
  if (!isObject(result)) return "";
  const user = asText(result.answered_by_user).trim();
  const isAccount = result.answered_by_account === true;
  if (!showsName(user, model.get("_show_names") === true, isAccount)) return "";
  const mark = APPROVERS_TEXT.marks[asText(result.identity)];
  return mark === undefined ? ` by ${user}` : ` by ${user} (${mark})`;
}
