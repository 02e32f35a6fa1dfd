import { isBuilt } from "../schema/features";
import { usePage } from "../server/render/page-context";
import { buttonClass } from "../ui/button";
import { definePage } from "./types";

/** The public home page (spec §2): signed-out visitors see it; signed-in users go to /welcome. */
function Home() {
  const { t, settings } = usePage();
  return (
    <section className="mx-auto max-w-2xl py-12 text-center">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{settings.appTitle}</h1>
      <p className="mt-4 text-lg text-slate-700">{t("home.lead", { brand: settings.brandName })}</p>
      <ul className="mx-auto mt-8 grid max-w-xl gap-3 text-left text-slate-700 sm:grid-cols-2">
        <li className="rounded-lg bg-white p-4 shadow-sm">{t("home.pointConfigure")}</li>
        {/* Only what exists (src/schema/features.ts): deployments and devices come back with their screens. */}
        <li className="rounded-lg bg-white p-4 shadow-sm">
          {t(isBuilt("deployments") ? "home.pointDeploy" : "home.pointProfiles")}
        </li>
        <li className="rounded-lg bg-white p-4 shadow-sm">{t(isBuilt("devices") ? "home.pointDevices" : "home.pointSeats")}</li>
        <li className="rounded-lg bg-white p-4 shadow-sm">{t("home.pointAccounts")}</li>
      </ul>
      <p className="mt-10">
        <a href="/sign-in" className={buttonClass("primary", "lg")}>
          {t("header.signIn")}
        </a>
      </p>
    </section>
  );
}

export const homePage = definePage({
  // Signed-in users start at their welcome page (spec §2).
  load: async (c) => (c.get("user") ? c.redirect("/welcome", 302) : undefined),
  Component: Home,
});
