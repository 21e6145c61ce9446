// Where focus goes once the person answers (js/focus/focusreturn.ts, js/focus/autofocus.ts): to the next
// request still waiting, else to the cell after the one that asked, never to the asking cell
// itself (Shift+Enter there would run its agent again); and a question asked from a notebook's
// last cell takes focus from the empty cell Shift+Enter added below it.
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mayTakeFocusFrom } from "./autofocus";
import { nextCell } from "./focusreturn";
import { DB, FakeModel, mount, pendingModel, responseWrites, unmountAll, type Mounted } from "../testing/harness";

const mounted: Mounted[] = [];

afterEach(() => {
  for (const m of mounted.splice(0)) m.cleanup();
  unmountAll();
  document.body.replaceChildren();
});

/** A notebook of `count` code cells (cell i's prompt `[i]:`, the last never run), in command mode. */
function notebook(count: number): HTMLElement[] {
  const book = document.createElement("div");
  book.className = "jp-Notebook jp-mod-commandMode";
  const cells = Array.from({ length: count }, (_, i) => {
    const cell = document.createElement("div");
    cell.className = "jp-Cell jp-CodeCell";
    cell.tabIndex = -1;
    const prompt = document.createElement("div");
    prompt.className = "jp-InputArea-prompt";
    prompt.textContent = i === count - 1 ? "[ ]:" : `[${String(i + 1)}]:`;
    const editor = document.createElement("div");
    editor.className = "cm-content";
    editor.setAttribute("contenteditable", "true");
    editor.tabIndex = 0; // jsdom focuses no contenteditable without it
    cell.append(prompt, editor);
    book.append(cell);
    return cell;
  });
  document.body.append(book);
  return cells;
}

function showIn(cell: HTMLElement, model: FakeModel): Mounted {
  const m = mount(model, { attach: false });
  mounted.push(m);
  cell.append(m.host);
  return m;
}

function approval(id: string, waiting: number): FakeModel {
  const batch = { id: "b1", lead: id === "r0", waiting, approvals: ["r0", "r1", "r2"] };
  return new FakeModel({ _kind: "approval", _request_id: id, _title: `Drop table ${id}`, _details: id, _batch: batch });
}

describe("focus once the person answers", () => {
  it("goes to the cell after the asking one when the person pressed in the asking cell first", async () => {
    const cells = notebook(3);
    const [asking, after] = cells as [HTMLElement, HTMLElement];
    const { root } = showIn(asking, pendingModel([DB]));
    const user = userEvent.setup();
    // What the notebook does on a press in a cell's output: that cell becomes active and focused.
    asking.addEventListener("mousedown", () => asking.focus());
    asking.focus();
    await user.click(getByRole(root, "radio", { name: /SQLite/ }));
    await user.click(getByRole(root, "button", { name: "Submit" }));
    expect(document.activeElement).toBe(after);
  });

  it("goes to the cell after the asking one, not up to the notebook's first cell (active after a reload)", async () => {
    const [first, asking, after] = notebook(3) as [HTMLElement, HTMLElement, HTMLElement];
    first.focus();
    const { root } = showIn(asking, pendingModel([DB]));
    await vi.waitFor(() => expect(root.contains(document.activeElement)).toBe(true));
    const user = userEvent.setup();
    await user.keyboard("{ArrowDown}{Enter}");
    expect(document.activeElement).toBe(after);
  });

  it("goes from card to card while a batch waits, then to the cell the person was in", async () => {
    const [asking, after] = notebook(2) as [HTMLElement, HTMLElement];
    after.focus();
    const models = ["r0", "r1", "r2"].map((id) => approval(id, 3));
    const cards = models.map((model) => showIn(asking, model).root);
    await vi.waitFor(() => expect(cards[0]?.contains(document.activeElement)).toBe(true));
    const user = userEvent.setup();
    for (const [i, card] of cards.entries()) {
      expect(document.activeElement).toBe(getByRole(card, "button", { name: "Reject" }));
      await user.keyboard("{Enter}");
      expect(responseWrites(models[i] as FakeModel)).toHaveLength(1);
    }
    expect(document.activeElement).toBe(after);
  });

  it("names the notebook's next cell", () => {
    const [first, second] = notebook(2) as [HTMLElement, HTMLElement];
    expect(nextCell(first)).toBe(second);
    expect(nextCell(second)).toBeNull();
  });
});

describe("autofocus from the cell below", () => {
  it("takes focus from the empty cell Shift+Enter added, not from one typed in or run", () => {
    const [asking, below] = notebook(2) as [HTMLElement, HTMLElement];
    const root = document.createElement("div");
    asking.append(root);
    const editor = below.querySelector(".cm-content") as HTMLElement;
    expect(mayTakeFocusFrom(editor, root)).toBe(true);
    editor.textContent = "x";
    expect(mayTakeFocusFrom(editor, root)).toBe(false);
    editor.textContent = "";
    (below.querySelector(".jp-InputArea-prompt") as HTMLElement).textContent = "[3]:";
    expect(mayTakeFocusFrom(editor, root)).toBe(false);
    // Nor from an empty cell further down.
    const [, , far] = notebook(3) as [HTMLElement, HTMLElement, HTMLElement];
    expect(mayTakeFocusFrom(far.querySelector(".cm-content"), root)).toBe(false);
  });
});
