import { usePage } from "../server/render/page-context";
import { ButtonLink } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { definePage } from "./types";

function PasswordChanged() {
  const { t } = usePage();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.confirmPasswordReset"))} />
      <p role="status" className="text-slate-700">
        {t("passwordReset.changedBody")}
      </p>
      <p className="mt-8">
        <ButtonLink href="/sign-in">{t("passwordReset.signInNew")}</ButtonLink>
      </p>
    </div>
  );
}

/** /confirm-password-reset: the password changed; sign in with it. */
export const confirmPasswordResetPage = definePage({ Component: PasswordChanged });
