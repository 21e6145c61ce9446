// The "Add a note" disclosure: a quiet button (aria-expanded) and the box it opens, holding a
// capped note textbox. Used per question and for the whole set; its state lives in the draft.
import { MAX_NOTE_CHARS } from "../../contract/contract";
import { button, el, setFieldValue } from "../../parts/dom";
import { cappedText } from "../../parts/capped";

export const NOTE_TEXT = {
  placeholder: "Optional: anything the agent should know",
} as const;

/** The note textbox's accessible name: "Note for <header or question>". */
export function noteLabel(subject: string): string {
  return `Note for ${subject}`;
}

/** An "Add a note" disclosure: its button, the box it opens, the textbox in it. */
export interface NoteControls {
  toggle: HTMLButtonElement;
  box: HTMLElement;
  text: HTMLTextAreaElement;
  refreshCounter: () => void;
}

export interface NoteOptions {
  /** The box's id; the counter's is `${id}-count`. */
  id: string;
  /** The button's text. */
  name: string;
  /** The textbox's accessible name. */
  label: string;
  onToggle: (open: boolean) => void;
  onInput: (text: string) => void;
}

/** The disclosure button and the box it opens, collapsed until opened. */
export function noteDisclosure({ id, name, label, onToggle, onInput }: NoteOptions): NoteControls {
  const box = el("div", "nbask-note-box");
  box.id = id;
  box.hidden = true;
  const toggle = button("nbask-note-toggle", name, () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    onToggle(open);
    // Opening means the person wants to write it.
    if (open) text.focus();
  });
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", box.id);
  const text = el("textarea", "nbask-note-text");
  text.rows = 2;
  text.dir = "auto";
  text.placeholder = NOTE_TEXT.placeholder;
  text.setAttribute("aria-label", label);
  // Capped like an Other answer; the kernel refuses a longer one.
  const counter = cappedText(text, MAX_NOTE_CHARS, `${id}-count`);
  text.addEventListener("input", () => onInput(text.value));
  box.append(text, counter.element);
  return { toggle, box, text, refreshCounter: counter.refresh };
}

/** A question's note row: the toggle (described by the question, as its name is the same in
 *  every question) and its box; the toggle goes into `head` instead when given. */
export function placeNote(note: NoteControls, describedBy: string, head: HTMLElement | null): HTMLElement {
  note.toggle.setAttribute("aria-describedby", describedBy);
  const row = el("div", "nbask-note");
  if (head) head.append(el("span", "nbask-spacer"), note.toggle);
  else row.append(note.toggle);
  row.append(note.box);
  return row;
}

/** Shows a note's draft: the box open or collapsed, and its text. */
export function syncNote(note: NoteControls, draft: { readonly note: string; readonly noteOpen: boolean }): void {
  note.toggle.setAttribute("aria-expanded", String(draft.noteOpen));
  note.box.hidden = !draft.noteOpen;
  // A collapsed note with text is still sent; the button says there is one.
  note.toggle.dataset.hasNote = String(draft.note.trim() !== "");
  if (setFieldValue(note.text, draft.note)) note.refreshCounter();
}
