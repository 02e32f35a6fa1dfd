import { onLeave } from "./outside";

/**
 * The header's <details> menus (language, mobile) work without JavaScript; with it they also
 * close on Escape, giving the focus back to their summary, and when the focus or a click goes
 * elsewhere (issue 9 §4, WCAG 2.1.2 and 1.4.13).
 */
export function enhanceDisclosure(details: HTMLDetailsElement): void {
  const summary = details.querySelector("summary");
  // Listening always (not from the "toggle" event, which fires a task later) so that a focus
  // moving away right after the menu opens still closes it.
  onLeave(details, () => {
    if (details.open) details.open = false;
  });
  details.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !details.open) return;
    event.preventDefault();
    details.open = false;
    summary?.focus();
  });
}

export function enhanceDisclosures(root: ParentNode = document): void {
  for (const details of root.querySelectorAll<HTMLDetailsElement>("details[data-disclosure]")) enhanceDisclosure(details);
}
