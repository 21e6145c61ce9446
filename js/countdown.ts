// The countdown in a pending form's header row: "Time left m:ss" ticking each second until the
// deadline, then "Time is up". The shell owns one and tells it when to tick.

export const COUNTDOWN_TEXT = {
  timeLeft: "Time left",
  timeUp: "Time is up",
} as const;

/** m:ss, or h:mm:ss from one hour up. Rounds up, so "0:00" is never shown while time is left. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, "0");
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, "0")}:${ss}`;
  return `${minutes}:${ss}`;
}

export class Countdown {
  /** The timer element of the form shown, or null when none is. */
  element: HTMLElement | null = null;
  private ticker: ReturnType<typeof setInterval> | undefined;

  /** Shows the time left until `deadline` (0 = no deadline: hidden). */
  show(deadline: number): void {
    const timer = this.element;
    if (timer === null) return;
    timer.hidden = deadline === 0;
    if (deadline === 0) {
      timer.textContent = "";
      return;
    }
    const left = deadline - Date.now();
    timer.textContent = left > 0 ? `${COUNTDOWN_TEXT.timeLeft} ${formatDuration(left)}` : COUNTDOWN_TEXT.timeUp;
  }

  /** Calls `tick` every second until stopped. */
  start(tick: () => void): void {
    if (this.ticker === undefined) this.ticker = setInterval(tick, 1000);
  }

  stop(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
