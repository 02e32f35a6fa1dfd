import { SIGNED_OUT_KEY, signOut } from "@/islands/runtime/sign-out";

/** Spec §4 and §9: a signed-in session goes idle after 15 minutes and is signed out. */
export const IDLE_TIMEOUT_MS = 15 * 60_000;
/** WCAG 2.2.1: the warning comes this long before the sign-out. */
export const WARNING_BEFORE_MS = 2 * 60_000;
/** While the user is active, the server's idle clock is refreshed at most this often. */
export const SERVER_REFRESH_MS = 5 * 60_000;
/** Shared by the site's tabs, so activity in any of them keeps all of them signed in. */
export const LAST_ACTIVITY_KEY = "last-activity-at";
/** localStorage is written at most this often (pointer moves come many times a second). */
const SHARE_EVERY_MS = 5_000;

const activityEvents = ["pointerdown", "pointermove", "keydown", "wheel", "scroll", "touchstart", "focus"] as const;

function storedActivity(): number {
  try {
    return Number(localStorage.getItem(LAST_ACTIVITY_KEY)) || 0;
  } catch {
    return 0; // storage blocked: this tab counts alone
  }
}

function share(at: number): void {
  try {
    localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // storage blocked or full: this tab counts alone
  }
}

/** Asks the server whether the session is alive; asking also resets its idle clock. */
async function sessionAlive(): Promise<boolean> {
  try {
    const response = await fetch("/api/me", { headers: { Accept: "application/json" }, cache: "no-store" });
    const body = (await response.json()) as { ok?: boolean };
    return body.ok === true;
  } catch {
    return true; // offline for a moment is not signed out; the idle timer still runs
  }
}

/** "Stay signed in": touches the session on the server now. */
async function extendSession(): Promise<boolean> {
  try {
    const response = await fetch("/api/session/extend", { method: "POST", headers: { Accept: "application/json" } });
    const body = (await response.json()) as { ok?: boolean };
    return body.ok === true;
  } catch {
    return true; // offline for a moment: the next refresh will tell
  }
}

/**
 * Signs the user out after 15 minutes without pointer, key, scroll, touch or focus activity
 * in any tab of the site, and keeps the server's session alive while the user is active.
 * Two minutes before, `warning` (a dialog the server rendered) opens with a "Stay signed in"
 * button; while it is open only that button (or activity in another tab) counts as activity.
 * Without JavaScript the server's own 15-minute limit stays.
 */
export function startIdleTimer(warning: HTMLDialogElement | null): void {
  let lastActivity = Date.now();
  let lastShared = 0;
  // The page load itself just reset the server's idle clock.
  let lastRefresh = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let leaving = false;
  const warned = () => warning?.open === true;

  function stop() {
    clearTimeout(timer);
    for (const name of activityEvents) window.removeEventListener(name, onActivity, true);
    window.removeEventListener("storage", onStorage);
    document.removeEventListener("visibilitychange", check);
  }

  function leave(how: () => void) {
    if (leaving) return;
    leaving = true;
    stop();
    how();
  }

  function check() {
    clearTimeout(timer);
    lastActivity = Math.max(lastActivity, storedActivity());
    const idle = Date.now() - lastActivity;
    if (idle >= IDLE_TIMEOUT_MS) return leave(() => void signOut());
    if (idle >= IDLE_TIMEOUT_MS - WARNING_BEFORE_MS) {
      if (warning && !warning.open) warning.showModal();
      timer = setTimeout(check, IDLE_TIMEOUT_MS - idle);
    } else {
      if (warned()) warning?.close();
      timer = setTimeout(check, IDLE_TIMEOUT_MS - WARNING_BEFORE_MS - idle);
    }
  }

  function active(now: number) {
    lastActivity = now;
    if (now - lastShared >= SHARE_EVERY_MS) {
      lastShared = now;
      share(now);
    }
  }

  function onActivity() {
    // Once warned, moving the mouse is not an answer: the dialog's button is.
    if (warned()) return;
    const now = Date.now();
    // Coming back to a tab that slept through its timer: idle is idle, however it ends.
    if (now - Math.max(lastActivity, storedActivity()) >= IDLE_TIMEOUT_MS) return check();
    active(now);
    if (now - lastRefresh >= SERVER_REFRESH_MS) {
      lastRefresh = now;
      void sessionAlive().then((alive) => {
        if (!alive) leave(() => location.assign("/"));
      });
    }
  }

  function onStorage(event: StorageEvent) {
    if (event.key === SIGNED_OUT_KEY) leave(() => location.assign("/"));
    else if (event.key === LAST_ACTIVITY_KEY) {
      lastActivity = Math.max(lastActivity, Number(event.newValue) || 0);
      if (warned()) check(); // another tab answered the warning
    }
  }

  function staySignedIn() {
    const now = Date.now();
    lastShared = 0;
    active(now);
    lastRefresh = now;
    warning?.close();
    check();
    void extendSession().then((alive) => {
      if (!alive) leave(() => location.assign("/"));
    });
  }

  warning?.querySelector("form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    staySignedIn();
  });
  // Escape answers the warning too: the person is there.
  warning?.addEventListener("cancel", (event) => {
    event.preventDefault();
    staySignedIn();
  });

  share(lastActivity);
  lastShared = lastActivity;
  timer = setTimeout(check, IDLE_TIMEOUT_MS - WARNING_BEFORE_MS);
  for (const name of activityEvents) window.addEventListener(name, onActivity, { capture: true, passive: true });
  window.addEventListener("storage", onStorage);
  document.addEventListener("visibilitychange", check);
}
