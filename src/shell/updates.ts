const RELOAD_DELAY_MS = 1000;
const RELOAD_TRIES_KEY = "island-reload-tries";
const MAX_RELOAD_TRIES = 3;

/**
 * A chunk could not be loaded (usually a deploy replaced it): the page says so and reloads
 * a second later (spec §2), at most three times in a row.
 */
export function checkForUpdates(): void {
  if (document.getElementById("checking-for-updates")) return;
  const text = document.body.dataset.updatingText ?? "";
  const banner = document.createElement("div");
  banner.id = "checking-for-updates";
  banner.setAttribute("role", "status");
  banner.className = "updating-banner";
  banner.textContent = text;
  document.body.append(banner);
  // A chunk that stays missing would otherwise reload the page forever.
  const tries = Number(sessionStorage.getItem(RELOAD_TRIES_KEY) ?? 0);
  if (tries >= MAX_RELOAD_TRIES) return;
  sessionStorage.setItem(RELOAD_TRIES_KEY, String(tries + 1));
  setTimeout(() => location.reload(), RELOAD_DELAY_MS);
}
