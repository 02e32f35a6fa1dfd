/**
 * Parts of a server-rendered page outside any island (a state badge, a banner, action forms),
 * marked `data-live-part="name"` (src/ui/live-part.tsx). When an island learns that the page's
 * subject changed state, it asks the server for the same page once and swaps in the parts that
 * differ, so they say what a reload would say, without a reload and without shipping the
 * page's rendering to the browser. Without JavaScript the page's Refresh link does the same.
 */
export async function refreshLiveParts(): Promise<void> {
  const parts = document.querySelectorAll<HTMLElement>("[data-live-part]");
  if (parts.length === 0) return;
  const response = await fetch(location.href, { headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const part of parts) {
    const html = fresh.querySelector(`[data-live-part="${part.dataset.livePart}"]`)?.innerHTML ?? "";
    // An unchanged part keeps its DOM (and any island hydrated inside it).
    if (part.innerHTML !== html) part.innerHTML = html;
  }
}
