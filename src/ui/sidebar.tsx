export type SidebarItem = { href: string; label: string; current: boolean };

/** The section navigation beside a page (the account sidebar of spec §2). */
export function Sidebar({ label, items }: { label: string; items: SidebarItem[] }) {
  return (
    <nav aria-label={label} className="w-full md:w-56 md:shrink-0 print:hidden">
      <ul className="relative flex gap-1 overflow-x-auto md:flex-col">
        {items.map((item) => (
          <li key={item.href}>
            <a
              href={item.href}
              aria-current={item.current ? "page" : undefined}
              className={
                "block rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap " +
                (item.current ? "bg-brand-50 text-brand-800" : "text-slate-700 hover:bg-slate-100")
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
