import { languageNames, languages } from "@/schema/languages";
import { usePage } from "@/server/render/page-context";

/** One form button per language; posting remembers the choice in a cookie and comes back here in it. */
function LanguageChoices({ className }: { className: string }) {
  const { language, currentPath } = usePage();
  return (
    <form method="post" action="/language" className={className}>
      <input type="hidden" name="next" value={currentPath} />
      <ul>
        {languages.map((lng) => (
          <li key={lng}>
            <button
              type="submit"
              name="language"
              value={lng}
              lang={lng}
              aria-current={lng === language ? "true" : undefined}
              className="w-full rounded px-3 py-2 text-left text-sm hover:bg-slate-100 aria-[current]:font-semibold"
            >
              {languageNames[lng]}
            </button>
          </li>
        ))}
      </ul>
    </form>
  );
}

/**
 * The language menu: a disclosure of plain form buttons, so it works without JavaScript and
 * ships none. `inline` lists the choices under a heading, for the mobile menu.
 */
export function LanguageMenu({ inline = false }: { inline?: boolean }) {
  const { t, language } = usePage();
  const label = t("header.languageMenu", { language: languageNames[language] });
  if (inline) {
    return (
      <section aria-label={label}>
        <p className="px-3 pt-2 pb-1 text-xs font-semibold text-slate-500 uppercase">{label}</p>
        <LanguageChoices className="" />
      </section>
    );
  }
  return (
    <details className="relative" data-disclosure="">
      <summary
        className="flex cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100"
        aria-label={label}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.5">
          <circle cx="10" cy="10" r="7.5" />
          <path d="M2.5 10h15M10 2.5c2.2 2.3 2.2 12.7 0 15M10 2.5c-2.2 2.3-2.2 12.7 0 15" />
        </svg>
        <span className="hidden sm:inline">{languageNames[language]}</span>
      </summary>
      <LanguageChoices className="absolute right-0 z-20 mt-1 w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg" />
    </details>
  );
}
