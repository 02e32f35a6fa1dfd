import { usePage } from "@/server/render/page-context";

/** Legal links on the owning company's site, the API reference (issue 27) and the copyright line (spec §1). */
export function Footer() {
  const { t, settings } = usePage();
  return (
    <footer className="mt-auto border-t border-slate-200 bg-white print:hidden">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-4 text-sm text-slate-600">
        <nav aria-label={t("footer.legal")}>
          <ul className="flex gap-4">
            <li>
              <a href={settings.privacyUrl} rel="noopener noreferrer" className="hover:underline">
                {t("footer.privacy")}
              </a>
            </li>
            <li>
              <a href={settings.termsUrl} rel="noopener noreferrer" className="hover:underline">
                {t("footer.terms")}
              </a>
            </li>
          </ul>
        </nav>
        <a href="/docs/api" className="hover:underline">
          {t("footer.apiDocs")}
        </a>
        <p className="sm:ml-auto">{t("footer.copyright", { year: settings.copyrightYear, brand: settings.brandName })}</p>
      </div>
    </footer>
  );
}
