/**
 * Keyboard rules shared by the header's menus (WAI-ARIA menu and listbox patterns): arrows
 * move and wrap, Home and End jump, and typed letters find an item by its first letters.
 */

/** Spec §9: the typed letters are forgotten after 350 ms without typing. */
export const TYPE_AHEAD_RESET_MS = 350;

/** The index a navigation key moves to among `count` items from `current` (-1: none yet), or null. */
export function indexForKey(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return current < 0 ? 0 : (current + 1) % count;
    case "ArrowUp":
      return current <= 0 ? count - 1 : current - 1;
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return null;
  }
}

/** The letters typed so far; a pause of 350 ms starts a new word. */
export class TypeAhead {
  private typed = "";
  private lastAt = Number.NEGATIVE_INFINITY;

  push(char: string, now: number): string {
    if (now - this.lastAt >= TYPE_AHEAD_RESET_MS) this.typed = "";
    this.typed += char.toLocaleLowerCase();
    this.lastAt = now;
    return this.typed;
  }
}

/** A key that types a letter rather than commanding (Space activates, so it is not one). */
export function isTypeAheadKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): boolean {
  return event.key.length === 1 && event.key !== " " && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/**
 * The item whose label starts with `typed`, looking after `current` and wrapping, or null.
 * A new first letter starts after the current item; more letters of the same word may keep
 * it; one letter typed again and again cycles through the items that start with it.
 */
export function typeAheadIndex(labels: readonly string[], typed: string, current: number): number | null {
  if (typed === "" || labels.length === 0) return null;
  const first = typed[0] ?? "";
  const repeated = [...typed].every((char) => char === first);
  const search = repeated ? first : typed;
  const start = repeated ? current + 1 : Math.max(current, 0);
  for (let step = 0; step < labels.length; step += 1) {
    const index = (start + step) % labels.length;
    if ((labels[index] ?? "").toLocaleLowerCase().startsWith(search)) return index;
  }
  return null;
}
