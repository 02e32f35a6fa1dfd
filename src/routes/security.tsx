import type { ReactNode } from "react";
import { fieldMessage } from "@/schema/field-messages";
import { Island } from "../islands/runtime/island";
import { formatDate } from "../schema/format";
import { api } from "../server/api/procedures-route";
import { hashPassword, passwordProblem, verifyPassword } from "../server/auth/passwords";
import { withinLimit } from "../server/auth/throttle";
import { batch } from "../server/data/db";
import { deleteOtherSessionsStatement } from "../server/data/sessions";
import { findUserById, setPasswordStatement } from "../server/data/users";
import { usePage } from "../server/render/page-context";
import { PageHeader } from "../ui/page-header";
import { type IdentityView, LinkedIdentities } from "./security-identities";
import { PasskeyList, type PasskeyView } from "./security-passkeys";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

type Data = {
  email: string;
  lastSignInAt: string | null;
  twoFactor: "none" | "email";
  passkeys: PasskeyView[];
  identities: IdentityView[];
};

function MethodRow({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="px-4 py-4">
      <h3 className="font-medium text-slate-900">{title}</h3>
      <div className="mt-1 text-sm text-slate-700">{children}</div>
    </li>
  );
}

function Security({ data, form }: PageProps<Data>) {
  const { t, language, settings } = usePage();
  const initialErrors = Object.fromEntries(Object.entries(form?.errors ?? {}).map(([field, key]) => [field, String(t(key))]));
  return (
    <>
      <PageHeader title={String(t("routes.security"))} description={t("security.lead")} />
      <div className="grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="password-heading" className="max-w-md">
          <h2 id="password-heading" className="mb-4 text-lg font-semibold text-slate-900">
            {t("security.changePasswordHeading")}
          </h2>
          <Island name="change-password" props={{ email: data.email, initialErrors }} />
        </section>
        <section aria-labelledby="methods-heading">
          <h2 id="methods-heading" className="mb-4 text-lg font-semibold text-slate-900">
            {t("security.methods")}
          </h2>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            <MethodRow title={String(t("security.password"))}>
              {data.lastSignInAt
                ? t("security.lastSignIn", {
                    when: formatDate(language, data.lastSignInAt, { dateStyle: "long", timeStyle: "long", timeZone: "UTC" }),
                  })
                : t("security.neverSignedIn")}
            </MethodRow>
            <MethodRow title={String(t("security.emailTwoFactor"))}>
              <p className="font-medium">{t(data.twoFactor === "email" ? "security.on" : "security.off")}</p>
              <p className="text-slate-600">{t("security.emailTwoFactorHelp", { email: data.email })}</p>
            </MethodRow>
          </ul>
          {settings.passkeysEnabled && <PasskeyList passkeys={data.passkeys} />}
          <LinkedIdentities identities={data.identities} />
        </section>
      </div>
    </>
  );
}

function formText(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value : "";
}

function refused(status: 400 | 401 | 429, errors: Record<string, string>): ActionResult {
  // Passwords are never sent back into the page.
  return { ok: false, status, form: { values: {}, errors } };
}

/**
 * Changes the password: the rules of passwordProblem, the current password checked, then the
 * new hash and the end of the user's other sessions in one batch. This session stays.
 */
async function changePassword(c: RouteContext): Promise<ActionResult> {
  const user = c.get("user");
  if (!user) return refused(401, { form: "errors.signInFirst" });
  const body = await c.req.parseBody();
  const current = formText(body, "currentPassword");
  const next = formText(body, "newPassword");
  const confirmation = formText(body, "confirmPassword");

  const errors: Record<string, string> = {};
  if (!current) errors.currentPassword = fieldMessage("currentPassword", "required");
  const problem = passwordProblem(next);
  if (problem) errors.newPassword = problem === "validation.PasswordRequired" ? fieldMessage("newPassword", "required") : problem;
  else if (!confirmation) errors.confirmPassword = "validation.PasswordConfirmationRequired";
  else if (confirmation !== next) errors.confirmPassword = "validation.PasswordMismatch";
  if (Object.keys(errors).length > 0) return refused(400, errors);

  // Each check of the current password is a guess; counted like sign-in attempts.
  if (!(await withinLimit(c, "sign-in"))) return refused(429, { form: "security.tooManyAttempts" });
  const record = await findUserById(c.env.DB, user.id);
  if (!(await verifyPassword(current, record?.passwordHash ?? null))) {
    return refused(400, { currentPassword: "security.wrongCurrentPassword" });
  }
  if (next === current) return refused(400, { newPassword: "security.samePassword" });

  await batch(c.env.DB, [
    setPasswordStatement(c.env.DB, user.id, await hashPassword(next)),
    deleteOtherSessionsStatement(c.env.DB, user.id, user.sessionId),
  ]);
  return { ok: true, redirect: "/security", flash: { type: "success", key: "security.passwordChanged" } };
}

/** /security: change password and the sign-in methods of the signed-in user. */
export const securityPage = definePage<Data>({
  load: async (c) => {
    const user = c.get("user");
    const record = user ? await findUserById(c.env.DB, user.id) : null;
    if (!record) return c.notFound();
    const passkeys = c.get("settings").passkeysEnabled ? await api(c).users.listPasskeysForUser() : [];
    const identities = await api(c).users.listIdentityProvidersForUser();
    return { email: record.email, lastSignInAt: record.lastSignInAt, twoFactor: record.twoFactor, passkeys, identities };
  },
  Component: Security,
  action: changePassword,
  toaster: true,
});
