// Words for the person. nbask writes each ending twice (src/nbask/contract.json `wording`): for
// the agent (what Answer.note and Decision.reason carry, unchanged) and for the person reading
// the widget. A result carries the agent's wording; the resolved block recognises it and shows
// the person's instead. A text that matches no agent wording is the person's own (a typed note
// or reason). Also here: the marks of the status line and the names it shows.
import { person_text, wording } from "../../src/nbask/contract.json";

interface Wording {
  agent: string;
  person: string;
  person_many?: string;
}

const WORDINGS: readonly Wording[] = Object.entries(wording)
  .filter(([key]) => key !== "$comment")
  .map(([, value]) => value as Wording);

/** The person's fixed texts: "You rejected this.", the "Note" label, the time warning. */
export const PERSON_TEXT = person_text;
/** A symbol per status or decision, shown with the status text (never colour alone). */
export const MARKS: Readonly<Record<string, string>> = person_text.marks;

function agentPattern(agent: string): RegExp {
  const escaped = agent.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\\\{(seconds|count)\\\}/g, "(?<$1>.+?)")}$`);
}

const PATTERNS = WORDINGS.map((wording) => ({ wording, pattern: agentPattern(wording.agent) }));

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The person's wording of a text nbask wrote for the agent, or null when `text` is not one.
 *  `count` (how many questions) chooses the plural where the agent's text has no count. */
export function personWording(text: string, count = 1): string | null {
  const trimmed = text.trim();
  for (const { wording, pattern } of PATTERNS) {
    const match = pattern.exec(trimmed);
    if (match === null) continue;
    const groups = match.groups ?? {};
    const n = groups.count === undefined ? count : Number(groups.count);
    const template = n > 1 && wording.person_many !== undefined ? wording.person_many : wording.person;
    return fill(template, { seconds: groups.seconds ?? "", count: String(n) });
  }
  return null;
}

/** A result's note split into the person's own words and nbask's (in the person's wording):
 *  nbask appends its remark after the person's note, a blank line apart. */
export function splitNote(note: string, count = 1): { own: string; nbask: string } {
  const whole = personWording(note, count);
  if (whole !== null) return { own: "", nbask: whole };
  const cut = note.lastIndexOf("\n\n");
  if (cut >= 0) {
    const tail = personWording(note.slice(cut + 2), count);
    if (tail !== null) return { own: note.slice(0, cut).trim(), nbask: tail };
  }
  return { own: note.trim(), nbask: "" };
}

/** The person's decision on an approval, in their words. */
export function decisionWording(decision: string): string {
  if (decision === "approve") return PERSON_TEXT.approved;
  if (decision === "edit") return PERSON_TEXT.edited;
  return PERSON_TEXT.rejected;
}

// jupyter_server's identity for a shared-token login: a random 32-hex username and the name
// "Anonymous <a moon of Jupyter>" (js/shell/identity.ts records the name).
const MADE_UP_NAME = /^Anonymous [A-Z][a-z]+$/;

/** Whether the status line names `user`: a real identity always; a made-up one, or the account
 *  the kernel runs as (`isAccount`: a one-person server's own), only when the kernel says more
 *  than one identity has answered there (`show_names`). */
export function showsName(user: string, showNames: boolean, isAccount = false): boolean {
  return user !== "" && (showNames || (!isAccount && !MADE_UP_NAME.test(user)));
}

/** "1 minute left to answer", "45 seconds left to answer". */
export function timeWarning(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const time = seconds >= 60 ? "1 minute" : seconds === 1 ? "1 second" : `${String(seconds)} seconds`;
  return fill(PERSON_TEXT.time_warning, { time });
}
