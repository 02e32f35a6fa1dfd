import { z } from "zod";
import { requestReset } from "../server/auth/password-reset";
import { usePage } from "../server/render/page-context";
import { PageHeader } from "../ui/page-header";
import { formText, IdentityFormIsland, refused } from "./identity-form";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

const emailSchema = z.string().max(254).email();

function ForgotPassword({ form }: PageProps<undefined>) {
  const { t } = usePage();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.forgotPassword"))} description={t("passwordReset.forgotIntro")} />
      <IdentityFormIsland
        form={form}
        submitLabel={String(t("passwordReset.sendLink"))}
        fields={[
          { name: "email", label: String(t("identityForm.email")), type: "email", autoComplete: "username", rule: "email" },
        ]}
      />
      <p className="mt-6 text-sm">
        <a href="/sign-in" className="text-brand-700 underline">
          {t("passwordReset.backToSignIn")}
        </a>
      </p>
    </div>
  );
}

/**
 * Asks for a reset link. Every well-formed address gets the same redirect, mail or not, so
 * the page never tells whether an account exists.
 */
async function sendResetLink(c: RouteContext): Promise<ActionResult> {
  const email = formText(await c.req.parseBody(), "email").trim();
  if (email === "") return refused(400, { email: "validation.EmailRequired" }, { email });
  if (!emailSchema.safeParse(email).success) return refused(400, { email: "validation.EmailInvalid" }, { email });
  const outcome = await requestReset(c, email);
  if (!outcome.ok) return refused(429, { form: "passwordReset.tooMany" }, { email });
  return { ok: true, redirect: "/confirm-reset-code-sent" };
}

/** /forgot-password: the address to send a reset link to. */
export const forgotPasswordPage = definePage({ Component: ForgotPassword, action: sendResetLink, toaster: true });
