/**
 * Parts of a server-rendered page outside any island (a state badge, a banner, action forms),
 * marked `data-live-part="name"` (src/ui/live-part.tsx). When a script learns that the page's
 * subject changed state, it asks the server for the same page once and swaps in the parts that
 * differ, so they say what a reload would say, without a reload and without shipping the
 * page's rendering to the browser. Without JavaScript the page's Refresh link does the same.
 *
 * A `data-live-text="name"` element keeps its node and takes the fresh text only: an
 * aria-live region announces a change of its text, not a region put in its place.
 */
export async function refreshLiveParts(): Promise<void> {
  const parts = document.querySelectorAll<HTMLElement>("[data-live-part]");
  const texts = document.querySelectorAll<HTMLElement>("[data-live-text]");
  if (parts.length === 0 && texts.length === 0) return;
  const response = await fetch(location.href, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const part of parts) {
    // Parts are always rendered (empty or not): one missing means another page answered (a
    // sign-in page after the session ended), and nothing is swapped.
    const next = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`);
    // An unchanged part keeps its DOM (and any island hydrated inside it).
    if (next && part.innerHTML !== next.innerHTML) part.innerHTML = next.innerHTML;
  }
  for (const text of texts) {
    const next = fresh.querySelector(`[data-live-text="${text.dataset.liveText}"]`);
    if (next && text.textContent !== next.textContent) text.textContent = next.textContent;
  }
}
