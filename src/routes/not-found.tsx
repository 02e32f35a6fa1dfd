import { usePage } from "../server/render/page-context";
import { definePage } from "./types";

/** The catch-all page (spec §2), answered with HTTP 404. */
function NotFound() {
  const { t } = usePage();
  return (
    <section className="py-16 text-center">
      <h1 className="text-2xl font-bold text-slate-900">{t("notFound.heading")}</h1>
      <p className="mt-4">
        <a href="/" className="font-medium text-brand-700 underline">
          {t("notFound.home")}
        </a>
      </p>
    </section>
  );
}

export const notFoundPage = definePage({ Component: NotFound });
