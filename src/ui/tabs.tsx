export type TabItem = { href: string; label: string; current: boolean };

/**
 * Tabs that are routes (spec §2: each tab has its own path), so they are links in a
 * navigation landmark, the current one marked with aria-current.
 */
export function Tabs({ label, items }: { label: string; items: TabItem[] }) {
  return (
    <nav aria-label={label} className="border-b border-slate-200">
      <ul className="relative -mb-px flex gap-4 overflow-x-auto">
        {items.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              aria-current={item.current ? "page" : undefined}
              className={
                "inline-block border-b-2 px-1 py-3 text-sm font-medium whitespace-nowrap " +
                (item.current
                  ? "border-brand-600 text-brand-700"
                  : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-800")
              }
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
