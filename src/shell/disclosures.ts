import { onLeave } from "./outside";

/**
 * The header's <details> menus (language, mobile) work without JavaScript; with it they also
 * close on Escape, giving the focus back to their summary, and when the focus or a click goes
 * elsewhere (issue 9 §4, WCAG 2.1.2 and 1.4.13).
 */
export function enhanceDisclosure(details: HTMLDetailsElement): void {
  const summary = details.querySelector("summary");
  let stop: (() => void) | null = null;
  details.addEventListener("toggle", () => {
    stop?.();
    stop = details.open ? onLeave(details, () => (details.open = false)) : null;
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
