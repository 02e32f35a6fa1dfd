import { indexForKey, isTypeAheadKey, TypeAhead, typeAheadIndex } from "@/islands/runtime/menu-keys";
import { onLeave } from "./outside";

let menus = 0;

/**
 * Turns the profile menu's <details> (links and a sign-out form, which is what a browser
 * without JavaScript gets) into the WAI-ARIA menu button: arrows, Home/End and type-ahead
 * move among the items, Escape closes and gives the focus back to the button, Tab, a click
 * or focus elsewhere closes. The items stay the same links and form button.
 */
export function enhanceMenuButton(details: HTMLDetailsElement): void {
  const summary = details.querySelector("summary");
  const found = details.querySelector<HTMLElement>("[data-menu-panel]");
  const list = found?.querySelector("ul");
  if (!summary || !found || !list) return;
  const panel: HTMLElement = found;
  menus += 1;
  const id = `menu${menus}`;

  const button = document.createElement("button");
  button.type = "button";
  button.id = `${id}button`;
  button.className = summary.className;
  button.setAttribute("aria-haspopup", "menu");
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", `${id}menu`);
  button.append(...summary.childNodes);

  list.id = `${id}menu`;
  list.setAttribute("role", "menu");
  list.setAttribute("aria-labelledby", button.id);
  list.tabIndex = -1;
  for (const li of list.children) li.setAttribute("role", "none");
  const items = [...list.querySelectorAll<HTMLElement>("a, button")];
  for (const item of items) {
    item.setAttribute("role", "menuitem");
    item.tabIndex = -1;
  }

  const root = document.createElement("div");
  root.className = details.className;
  panel.hidden = true;
  root.append(button, panel);
  details.replaceWith(root);

  const typeAhead = new TypeAhead();
  let stopLeave: (() => void) | null = null;

  const isOpen = () => !panel.hidden;
  function open(index: number) {
    if (!isOpen()) {
      panel.hidden = false;
      button.setAttribute("aria-expanded", "true");
      stopLeave = onLeave(root, () => setClosed());
    }
    items[index]?.focus();
  }
  function setClosed() {
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    stopLeave?.();
    stopLeave = null;
  }
  function close() {
    setClosed();
    button.focus();
  }

  button.addEventListener("click", () => (isOpen() ? setClosed() : open(0)));
  button.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    open(event.key === "ArrowDown" ? 0 : items.length - 1);
  });
  list.addEventListener("keydown", (event) => {
    const current = items.indexOf(document.activeElement as HTMLElement);
    const next = indexForKey(event.key, current, items.length);
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Tab") {
      // Focus goes back to the button first, so the Tab moves on from there.
      close();
    } else if (event.key === " " && event.target instanceof HTMLAnchorElement) {
      event.preventDefault(); // links follow on Enter only; a menu item also on Space
      event.target.click();
    } else if (isTypeAheadKey(event)) {
      event.preventDefault();
      const labels = items.map((item) => item.textContent?.trim() ?? "");
      const found = typeAheadIndex(labels, typeAhead.push(event.key, Date.now()), current);
      if (found !== null) items[found]?.focus();
    }
  });
}
