// The reply's second route, for JupyterLite's Pyodide kernel. JupyterLite's page sends every
// message to a kernel under one lock per kernel, released only when the running cell ends, so
// the comm would bring the answer to the very cell that waits for it only after that cell had
// given up. There the kernel names a BroadcastChannel (`_reply_channel`, one per request), which
// reaches its worker at once (same origin); the response goes there as well as to the comm.
// Other hosts leave `_reply_channel` empty and the comm is the only route.

/** Posts a view's responses on the channel the kernel named; one per view. */
export class ReplyChannel {
  private channel: BroadcastChannel | null = null;

  /** Posts `response` on the channel named `name`; nothing when the kernel named none. */
  post(name: unknown, response: object): void {
    if (typeof name !== "string" || name === "" || typeof BroadcastChannel === "undefined") return;
    if (this.channel?.name !== name) {
      this.close();
      this.channel = new BroadcastChannel(name);
    }
    // As JSON text: the kernel reads it with json.loads (a posted object would reach Python
    // with JavaScript's null as a proxy object rather than None).
    this.channel.postMessage(JSON.stringify(response));
  }

  /** Kept open until the view goes, so a message just posted is never cut off by a close. */
  close(): void {
    this.channel?.close();
    this.channel = null;
  }
}
