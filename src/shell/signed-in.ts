/**
 * The shell script of signed-in pages, in place of React (issue 10 §1): the header's menus
 * (keyboard patterns, Escape, focus leaving), the account switcher and its recent accounts,
 * sign-out, the idle timer and its warning, and the flash's toast. The server rendered all
 * of it as working HTML; this only enhances.
 */
import { signOut } from "@/islands/runtime/sign-out";
import { enhanceDisclosures } from "./disclosures";
import { showFlash } from "./flash";
import { startIdleTimer } from "./idle-timer";
import { enhanceMenuButton } from "./menu-button";
import { enhanceSwitcher } from "./switcher";

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

startIdleTimer(document.querySelector<HTMLDialogElement>("dialog#idle-warning"));
showFlash();
