import type { ReactNode } from "react";

/*
 * What the lists of /security (passkeys, linked identities) share: a titled section with a
 * lead, a dashed note while it is empty, else a list labelled by the title.
 */

export function SecurityListSection({
  id,
  title,
  lead,
  empty,
  items,
  children,
}: {
  /** The heading's id, which labels the section and the list. */
  id: string;
  title: ReactNode;
  lead: ReactNode;
  /** Shown instead of the list while it has no items. */
  empty: ReactNode;
  /** The list's <li> elements. */
  items: ReactNode[];
  /** After the list (a way to add one). */
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mt-6">
      <h3 id={id} className="font-medium text-slate-900">
        {title}
      </h3>
      <p className="mt-1 text-sm text-slate-600">{lead}</p>
      {items.length === 0 ? (
        <p className="mt-2 rounded-lg border-2 border-dashed border-slate-300 bg-white px-4 py-6 text-center text-sm text-slate-600">
          {empty}
        </p>
      ) : (
        <ul aria-labelledby={id} className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items}
        </ul>
      )}
      {children}
    </section>
  );
}
