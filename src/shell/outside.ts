/**
 * Calls `close` when a pointer goes down or the focus lands outside `root` (a menu closes
 * when someone clicks elsewhere or tabs away). Returns a function that stops listening.
 */
export function onLeave(root: Element, close: () => void): () => void {
  const listener = (event: Event) => {
    if (event.target instanceof Node && !root.contains(event.target)) close();
  };
  document.addEventListener("pointerdown", listener);
  document.addEventListener("focusin", listener);
  return () => {
    document.removeEventListener("pointerdown", listener);
    document.removeEventListener("focusin", listener);
  };
}
