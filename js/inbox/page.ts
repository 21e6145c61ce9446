// The inbox page of nbask's Jupyter server extension (src/nbask/server_extension/inbox_page.py):
// the requests waiting for the logged-in person, each drawn by the widget's own view of its kind
// (js/widget.ts VIEWS) over a model held in the page (./pagemodel.ts). An answer goes to the
// server's inbox API (./api.ts) instead of a kernel, which takes it once, as the person the server
// knows; the card then shows what the server kept, or why it refused. Model text is text only.
import { VIEWS } from "../kinds/all";
import type { Kind } from "../contract/contract";
import { alertBox } from "../shell/alert";
import { button, el, textEl } from "../parts/dom";
import { listItems, sendAnswer, type InboxCard } from "./api";
import { PageModel } from "./pagemodel";

export const INBOX_TEXT = {
  loading: "Loading the requests waiting for you…",
  empty: "Nothing waits for your answer in the inbox. A request you may answer appears here when an agent asks it; refresh to look again.",
  count: (n: number): string => (n === 1 ? "1 request waits for your answer." : `${n} requests wait for your answer.`),
  failed: (why: string): string => `The inbox could not be read: ${why}`,
  refresh: "Refresh",
  signedIn: (user: string): string => `Answering as ${user}.`,
  where: (card: InboxCard): string =>
    `${card.notebook !== null ? `From ${card.notebook}, asked` : "Asked"} ${card.asked_at} · ${card.short_id}`,
  leftWaiting: "Left waiting in the inbox: refresh this page to answer it.",
  unknownKind: (kind: string): string => `This page cannot show a request of kind "${kind}": update nbask on the server.`,
} as const;

/** The views drawn now: taken down before the list is drawn again. */
let shown: (() => void)[] = [];

function isKind(kind: string): kind is Kind {
  return Object.hasOwn(VIEWS, kind);
}

/** One request's section: its headline, where it comes from, its card and what the server said. */
function section(card: InboxCard, index: number): HTMLElement {
  const node = el("section", "nbask-inbox-item");
  node.dataset.id = card.id;
  const heading = textEl("h2", "nbask-inbox-headline", card.headline || card.kind);
  heading.id = `nbask-inbox-item-${index}`;
  node.setAttribute("aria-labelledby", heading.id);
  const where = textEl("p", "nbask-inbox-where", INBOX_TEXT.where(card));
  const said = alertBox();
  said.classList.add("nbask-inbox-said");
  const host = el("div", "nbask-inbox-card");
  node.append(heading, where, host, said);
  if (!isKind(card.kind)) {
    said.textContent = INBOX_TEXT.unknownKind(card.kind);
    said.hidden = false;
    return node;
  }
  const tell = (message: string): void => {
    said.textContent = message;
    said.hidden = message === "";
  };
  const model: PageModel = new PageModel(card.state, (response) => void answer(card, model, response, tell));
  const view = VIEWS[card.kind](model, host);
  shown.push(() => view.destroy());
  return node;
}

async function answer(
  card: InboxCard,
  model: PageModel,
  response: Record<string, unknown>,
  tell: (message: string) => void,
): Promise<void> {
  tell("");
  const reply = await sendAnswer(card.id, response);
  if (reply.leftWaiting) {
    model.update({ _response: {}, _status: "dismissed", _result: { note: INBOX_TEXT.leftWaiting } });
    return;
  }
  if (reply.item !== null) model.update(reply.item.state); // answered here, or before by someone else
  if (reply.ok) return;
  // Refused: the card unlocks so the person can answer again; a kind that shows the kernel's
  // refusals at its fields shows this one there too.
  if (reply.item === null) model.update({ _response: {}, ...("_error" in card.state ? { _error: reply.message } : {}) });
  if (reply.item !== null || !("_error" in card.state)) tell(reply.message);
}

async function show(main: HTMLElement): Promise<void> {
  const status = main.querySelector<HTMLElement>(".nbask-inbox-status") ?? el("p", "nbask-inbox-status");
  status.setAttribute("role", "status");
  status.textContent = INBOX_TEXT.loading;
  for (const destroy of shown) destroy();
  shown = [];
  for (const old of main.querySelectorAll(".nbask-inbox-list, .nbask-inbox-who, .nbask-inbox-refresh")) old.remove();
  try {
    const listing = await listItems();
    const list = el("div", "nbask-inbox-list");
    list.append(...listing.items.map(section));
    status.textContent = listing.items.length === 0 ? INBOX_TEXT.empty : INBOX_TEXT.count(listing.items.length);
    const who = textEl("p", "nbask-inbox-who", INBOX_TEXT.signedIn(listing.user));
    status.before(who);
    status.after(list);
  } catch (error) {
    status.textContent = INBOX_TEXT.failed(error instanceof Error ? error.message : String(error));
  }
  const refresh = button("nbask-button nbask-inbox-refresh", INBOX_TEXT.refresh, () => void show(main));
  status.after(refresh);
}

/** Draws the page into its main element (the server writes it, with the page's config). */
export function start(main: HTMLElement | null = document.querySelector<HTMLElement>("main.nbask-inbox")): void {
  if (main !== null) void show(main);
}

start();
