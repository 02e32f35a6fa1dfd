import { findOpenReset, resetPassword } from "../server/auth/password-reset";
import { passwordProblem } from "../server/auth/passwords";
import { usePage } from "../server/render/page-context";
import { ButtonLink } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { StatusMessage } from "../ui/status-message";
import { formText, IdentityFormIsland, newPasswordErrors, refused } from "./identity-form";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

type Data = { open: boolean };

function ResetPassword({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  if (!data.open) {
    // A used, expired or unknown link: say so and offer a new one, never the form.
    return (
      <div className="mx-auto max-w-md">
        <PageHeader title={String(t("routes.resetPassword"))} />
        <StatusMessage tone="error">{t("passwordReset.linkInvalid")}</StatusMessage>
        <ButtonLink href="/forgot-password">{t("passwordReset.requestNew")}</ButtonLink>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.resetPassword"))} description={t("passwordReset.resetIntro")} />
      <IdentityFormIsland
        form={form}
        submitLabel={String(t("passwordReset.save"))}
        fields={[
          {
            name: "password",
            label: String(t("passwordReset.newPassword")),
            type: "password",
            autoComplete: "new-password",
            rule: "new-password",
            hint: String(t("identityForm.passwordHint")),
          },
          {
            name: "passwordConfirmation",
            label: String(t("passwordReset.confirmPassword")),
            type: "password",
            autoComplete: "new-password",
            rule: "same-as-password",
          },
        ]}
      />
    </div>
  );
}

async function saveNewPassword(c: RouteContext): Promise<ActionResult> {
  const code = c.req.param("resetCode") ?? "";
  // A dead link first: no point in judging a password that cannot be saved.
  if (!(await findOpenReset(c, code))) return refused(404, { form: "passwordReset.linkInvalid" });
  const body = await c.req.parseBody();
  const password = formText(body, "password");
  const errors = newPasswordErrors(password, formText(body, "passwordConfirmation"), passwordProblem(password));
  if (Object.keys(errors).length > 0) return refused(400, errors);

  const outcome = await resetPassword(c, code, password);
  if (outcome.ok) return { ok: true, redirect: "/confirm-password-reset" };
  if (outcome.reason === "weak-password") return refused(400, { password: outcome.problem });
  return refused(404, { form: "passwordReset.linkInvalid" });
}

/** /reset-password/:resetCode: a new password, with the code from the mailed link. */
export const resetPasswordPage = definePage<Data>({
  load: async (c) => ({ open: (await findOpenReset(c, c.req.param("resetCode") ?? "")) !== null }),
  Component: ResetPassword,
  action: saveNewPassword,
  toaster: true,
});
