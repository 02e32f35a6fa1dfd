/**
 * The activity log's "Load more" without React (issue 24). The server rendered it as a link to
 * the next page (src/routes/accounts/activity/more-entries.tsx); this makes it a button that
 * fetches that page, appends its entries to the list in place, and takes that page's own next
 * link, until there is none: then it says so and takes the focus, as the button goes. If the
 * next page cannot be read here (the session ended, the network failed), it opens it instead.
 */
function enhance(more: HTMLElement) {
  const link = more.querySelector<HTMLAnchorElement>("a[href]");
  const list = document.querySelector<HTMLOListElement>("ol[data-entries]");
  if (!link || !list) return;
  let next = link.href;
  let shown = Number(more.dataset.shown);
  const label = link.textContent ?? "";
  const button = document.createElement("button");
  button.type = "button";
  button.className = link.className;
  button.textContent = label;
  const status = document.createElement("p");
  status.className = "sr-only";
  status.setAttribute("role", "status");
  link.replaceWith(button);
  more.after(status);

  button.addEventListener("click", async () => {
    if (button.getAttribute("aria-busy")) return;
    button.setAttribute("aria-busy", "true");
    button.setAttribute("aria-disabled", "true");
    button.textContent = more.dataset.loadingText ?? label;
    try {
      const response = await fetch(next, { headers: { Accept: "text/html" } });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const items = page.querySelectorAll("ol[data-entries] > li");
      if (!response.ok || items.length === 0) throw new Error(`${response.status}`);
      list.append(...items);
      shown += items.length;
      status.textContent = (more.dataset.shownText ?? "").replace("{{count}}", String(shown));
      const after = page.querySelector<HTMLAnchorElement>("[data-more-entries] a[href]");
      if (after) {
        next = new URL(after.getAttribute("href") ?? "", next).href;
      } else {
        const end = document.createElement("p");
        end.className = "mt-4 text-sm text-slate-600";
        end.tabIndex = -1;
        end.textContent = more.dataset.endText ?? "";
        more.replaceWith(end);
        end.focus();
      }
    } catch {
      location.assign(next);
      return;
    }
    button.removeAttribute("aria-busy");
    button.removeAttribute("aria-disabled");
    button.textContent = label;
  });
}

for (const more of document.querySelectorAll<HTMLElement>("[data-more-entries]")) enhance(more);
