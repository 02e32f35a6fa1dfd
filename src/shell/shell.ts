/**
 * The shell's one plain script, on every page, in place of React (issue 10 §1): the header's
 * menus (keyboard patterns, Escape, focus leaving), the account switcher and its recent
 * accounts, sign-out, the idle timer and its warning, and toasts (the flash's, and those
 * islands ask for through shell-events). The server rendered all of it as working HTML; this
 * only enhances. Signed-in parts run only where their markup is.
 */
import type { CHUNK_FAILED_EVENT, TOAST_EVENT, ToastType } from "@/islands/runtime/shell-events";
import { signOut } from "@/islands/runtime/sign-out";
import { enhanceDisclosures } from "./disclosures";
import { showFlash } from "./flash";
import { startIdleTimer } from "./idle-timer";
import { enhanceMenuButton } from "./menu-button";
import { enhanceSwitcher } from "./switcher";
import { showToast } from "./toast";
import { checkForUpdates } from "./updates";

// The names are repeated, not imported, so the shell shares no chunk with the islands; the types check they match.
const toastEvent: typeof TOAST_EVENT = "shell:toast";
const chunkFailedEvent: typeof CHUNK_FAILED_EVENT = "shell:chunk-failed";

document.addEventListener(toastEvent, (event) => {
  const { type, text } = (event as CustomEvent<{ type: ToastType; text: string }>).detail;
  showToast(type, text);
});
document.addEventListener(chunkFailedEvent, checkForUpdates);

enhanceDisclosures();
for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu]")) enhanceMenuButton(menu);
for (const switcher of document.querySelectorAll<HTMLElement>("[data-switcher]")) enhanceSwitcher(switcher);

// Spec §4: post, refresh the current user, then go to /. The plain form does the same without JavaScript.
let signingOut = false;
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-sign-out")) return;
  event.preventDefault();
  if (signingOut) return;
  signingOut = true;
  event.submitter?.setAttribute("aria-busy", "true");
  void signOut();
});

// Islands a streamed page rendered after its bootstrap tag was decided (a layout that loads
// data first) still hydrate: the document is complete when this runs. Loading the same
// module URL twice evaluates it once.
if (document.querySelector("[data-island]")) {
  import(/* @vite-ignore */ document.body.dataset.islandsSrc ?? "").catch(checkForUpdates);
}

const idleWarning = document.querySelector<HTMLDialogElement>("dialog#idle-warning");
if (idleWarning) startIdleTimer(idleWarning);
showFlash();
