// The countdown in a pending form's header row: "Time left m:ss" ticking each second until the
// deadline, then "Time is up". In the last minute it warns: the timer turns the theme's warning
// colour with a warning sign (data-warning, js/styles/header.css), and its own live region says
// once "1 minute left to answer" (or the seconds left, when the whole wait is shorter). The
// shell owns one and tells it when to tick.
import { el } from "../parts/dom";
import { timeWarning } from "../parts/wording";

/** The warning starts this long before the deadline. */
export const WARN_MS = 60_000;

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
  /** The warning's live region (visually hidden); the shell places it in the widget. */
  readonly notice: HTMLElement = el("div", "nbask-sr-only nbask-time-warning");
  private ticker: ReturnType<typeof setInterval> | undefined;
  /** The deadline already warned about: each is announced once. */
  private warned = 0;

  constructor() {
    this.notice.setAttribute("aria-live", "polite");
  }

  /** Shows the time left until `deadline` (0 = no deadline: hidden), from `from` on (epoch
   *  ms; 0 = all along): a limit nobody set is not counted down until its last minutes. */
  show(deadline: number, from = 0): void {
    const timer = this.element;
    if (timer === null) return;
    timer.hidden = deadline === 0 || Date.now() < from;
    if (timer.hidden) {
      timer.textContent = "";
      return;
    }
    const left = deadline - Date.now();
    timer.textContent = left > 0 ? `${COUNTDOWN_TEXT.timeLeft} ${formatDuration(left)}` : COUNTDOWN_TEXT.timeUp;
    const warning = left > 0 && left <= WARN_MS;
    if (warning) timer.dataset.warning = "";
    else timer.removeAttribute("data-warning");
    if (warning && this.warned !== deadline) {
      this.warned = deadline;
      this.notice.textContent = timeWarning(left);
    }
  }

  /** The form is gone (resolved): stop, and take back the warning. */
  reset(): void {
    this.stop();
    this.notice.textContent = "";
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
