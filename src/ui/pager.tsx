import { buttonClass } from "./button";

type PagerLink = { href: string | null; label: string };

/**
 * Previous / next between the pages of a server-paginated list, with where the reader is
 * ("Page 2 of 40") when the list knows it (keyset lists do not). Pages are links (the page
 * or cursor lives in the URL), so they work without JavaScript and can be bookmarked; an end
 * with nowhere to go is plain text.
 */
export function Pager({
  label,
  status,
  previous,
  next,
}: {
  label: string;
  status?: string;
  previous: PagerLink;
  next: PagerLink;
}) {
  const end = (link: PagerLink, rel: "prev" | "next") =>
    link.href ? (
      <a href={link.href} rel={rel} className={buttonClass("white", "sm")}>
        {link.label}
      </a>
    ) : (
      <span aria-disabled="true" className={`${buttonClass("white", "sm")} cursor-not-allowed opacity-50`}>
        {link.label}
      </span>
    );
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-4">
      {end(previous, "prev")}
      {status ? <p className="text-sm text-slate-700">{status}</p> : null}
      {end(next, "next")}
    </nav>
  );
}
