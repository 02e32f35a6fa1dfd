import type { RouteContext } from "@/routes/types";
import { ButtonLink } from "@/ui/button";
import { usePage } from "../render/page-context";
import { renderPage } from "../render/render-page";

/** Why single sign-on stopped, each with its own message (sso.problems.<reason>). */
export type SsoProblem =
  | "unknown-provider"
  | "not-configured"
  | "too-many-attempts"
  | "provider-unreachable"
  | "invalid-state"
  | "provider-refused"
  | "invalid-response"
  | "no-account"
  | "email-not-verified";

const statusOf: Record<SsoProblem, 400 | 403 | 404 | 429 | 502> = {
  "unknown-provider": 404,
  "not-configured": 404,
  "too-many-attempts": 429,
  "provider-unreachable": 502,
  "invalid-state": 400,
  "provider-refused": 403,
  "invalid-response": 400,
  "no-account": 403,
  "email-not-verified": 403,
};

function Problem({ reason, provider }: { reason: SsoProblem; provider: string }) {
  const { t } = usePage();
  return (
    <section className="mx-auto w-full max-w-md py-6 sm:py-10">
      <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8" data-sso-problem={reason}>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("sso.problemHeading")}</h1>
        <p role="alert" className="mt-4 text-slate-800">
          {t(`sso.problems.${reason}`, { provider })}
        </p>
        <p className="mt-6">
          <ButtonLink href="/sign-in">{t("sso.backToSignIn")}</ButtonLink>
        </p>
      </div>
    </section>
  );
}

/**
 * The page a single sign-on that cannot go on ends at: what happened, in the visitor's
 * language, and the way back to the sign-in page. Nobody is signed in by it.
 */
export function problemPage(c: RouteContext, reason: SsoProblem, provider = "") {
  return renderPage(c, {
    title: "sso.problemTitle",
    status: statusOf[reason],
    body: <Problem reason={reason} provider={provider || String(c.req.param("identityProviderId") ?? "")} />,
    styleSource: problemPage,
  });
}
