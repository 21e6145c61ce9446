// The reply's second route (JupyterLite): posted on the channel the kernel names, nowhere else.
import { getByRole } from "@testing-library/dom";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { DB, pendingModel, sent, unmountAll, view } from "../testing/harness";

afterEach(unmountAll);

/** Every message posted on `name` while `act` runs (and shortly after). */
async function heardOn(name: string, act: () => Promise<void>): Promise<unknown[]> {
  const heard: unknown[] = [];
  const listener = new BroadcastChannel(name);
  listener.onmessage = (event: MessageEvent<string>) => heard.push(JSON.parse(event.data));
  try {
    await act();
    // Delivery is a task of the event loop: give it a moment (a message arrives well before).
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    listener.close();
  }
  return heard;
}

describe("reply channel", () => {
  it("posts the exact response on the channel the kernel named, as well as on the comm", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB], { _reply_channel: "nbask-reply-req-1" });
    const { root } = view(model);
    const heard = await heardOn("nbask-reply-req-1", async () => {
      await user.click(getByRole(root, "radio", { name: "SQLite" }));
      await user.click(getByRole(root, "button", { name: "Submit" }));
    });
    expect(heard).toEqual([sent(model)]);
  });

  it("posts nothing when the kernel named no channel", async () => {
    const user = userEvent.setup();
    const model = pendingModel([DB], { _reply_channel: "" });
    const { root } = view(model);
    const heard = await heardOn("nbask-reply-req-1", async () => {
      await user.click(getByRole(root, "radio", { name: "SQLite" }));
      await user.click(getByRole(root, "button", { name: "Submit" }));
    });
    expect(heard).toEqual([]);
    expect(sent(model).action).toBe("submit");
  });
});
