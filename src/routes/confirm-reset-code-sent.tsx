import { usePage } from "../server/render/page-context";
import { ButtonLink } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { definePage } from "./types";

/** The same page whether or not the address has an account (no enumeration). */
function ResetCodeSent() {
  const { t } = usePage();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.confirmResetCodeSent"))} />
      <p className="text-slate-700">{t("passwordReset.sentBody")}</p>
      <p className="mt-4 text-sm text-slate-600">
        {t("passwordReset.sentNothing")}{" "}
        <a href="/forgot-password" className="text-brand-700 underline">
          {t("passwordReset.requestNew")}
        </a>
      </p>
      <p className="mt-8">
        <ButtonLink href="/sign-in" variant="white">
          {t("passwordReset.backToSignIn")}
        </ButtonLink>
      </p>
    </div>
  );
}

/** /confirm-reset-code-sent: check your email. */
export const confirmResetCodeSentPage = definePage({ Component: ResetCodeSent });
