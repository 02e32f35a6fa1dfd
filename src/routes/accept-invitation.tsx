import { isPlainText } from "@/schema/text";
import { acceptInvitation, type ClosedInvitationState, lookUpInvitation } from "../server/auth/invitations";
import { passwordProblem } from "../server/auth/passwords";
import { findUserByEmail } from "../server/data/users";
import { usePage } from "../server/render/page-context";
import { ButtonLink } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { StatusMessage } from "../ui/status-message";
import { formText, IdentityFormIsland, newPasswordErrors, refused } from "./identity-form";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

type Data = { state: "open"; organizationName: string; email: string; accountExists: boolean } | { state: ClosedInvitationState };

/** Why a link no longer works, as the page says it. */
const closedMessage: Record<ClosedInvitationState, string> = {
  accepted: "invitation.accepted",
  revoked: "invitation.revoked",
  expired: "invitation.expired",
  unknown: "invitation.unknown",
};

const NAME_MAX = 120;

function AcceptInvitation({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const title = String(t("routes.accept"));
  if (data.state !== "open") {
    return (
      <div className="mx-auto max-w-md">
        <PageHeader title={title} />
        <StatusMessage tone="error">{t(closedMessage[data.state])}</StatusMessage>
        {data.state === "accepted" && <ButtonLink href="/sign-in">{t("header.signIn")}</ButtonLink>}
      </div>
    );
  }
  const intro = t("invitation.intro", { organization: data.organizationName });
  if (data.accountExists) {
    // Never a second account for one address: the person signs in with the one they have.
    return (
      <div className="mx-auto max-w-md">
        <PageHeader title={title} description={intro} />
        <StatusMessage tone="info">{t("invitation.accountExists")}</StatusMessage>
        <p className="mb-4 text-sm text-slate-700">{data.email}</p>
        <ButtonLink href="/sign-in">{t("header.signIn")}</ButtonLink>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={title} description={intro} />
      <IdentityFormIsland
        form={form}
        submitLabel={String(t("invitation.accept"))}
        fields={[
          {
            name: "email",
            label: String(t("identityForm.email")),
            type: "email",
            autoComplete: "username",
            rule: "none",
            value: data.email,
            readOnly: true,
          },
          { name: "name", label: String(t("invitation.name")), type: "text", autoComplete: "name", rule: "name" },
          {
            name: "password",
            label: String(t("invitation.password")),
            type: "password",
            autoComplete: "new-password",
            rule: "new-password",
            hint: String(t("identityForm.passwordHint")),
          },
          {
            name: "passwordConfirmation",
            label: String(t("invitation.confirmPassword")),
            type: "password",
            autoComplete: "new-password",
            rule: "same-as-password",
          },
        ]}
      />
    </div>
  );
}

async function accept(c: RouteContext): Promise<ActionResult> {
  const code = c.req.param("invitationCode") ?? "";
  // A closed link first: no point in judging a form that cannot be accepted.
  const lookup = await lookUpInvitation(c.env.DB, code);
  if (lookup.state !== "open") return refused(lookup.state === "unknown" ? 404 : 409, { form: closedMessage[lookup.state] });
  const body = await c.req.parseBody();
  const name = formText(body, "name").trim();
  const password = formText(body, "password");
  const values = { name };

  const errors = newPasswordErrors(password, formText(body, "passwordConfirmation"), passwordProblem(password));
  if (name === "") errors.name = "validation.NameRequired";
  else if (name.length > NAME_MAX) errors.name = "validation.NameTooLong";
  else if (!isPlainText(name)) errors.name = "validation.ControlCharacters";
  if (Object.keys(errors).length > 0) return refused(400, errors, values);

  const outcome = await acceptInvitation(c, code, { name, password });
  if (outcome.ok) {
    return {
      ok: true,
      redirect: "/welcome",
      flash: { type: "success", key: "invitation.welcome", values: { organization: outcome.organizationName } },
    };
  }
  if (outcome.reason === "weak-password") return refused(400, { password: outcome.problem }, values);
  if (outcome.reason === "account-exists") return refused(409, { form: "invitation.accountExists" }, values);
  return refused(outcome.reason === "unknown" ? 404 : 409, { form: closedMessage[outcome.reason] }, values);
}

/** /accept/:invitationCode: joins the invitation's organization with a name and a password. */
export const acceptInvitationPage = definePage<Data>({
  load: async (c) => {
    const lookup = await lookUpInvitation(c.env.DB, c.req.param("invitationCode") ?? "");
    if (lookup.state !== "open") return { state: lookup.state };
    const { invitation } = lookup;
    return {
      state: "open",
      organizationName: invitation.organizationName,
      email: invitation.email,
      accountExists: (await findUserByEmail(c.env.DB, invitation.email)) !== null,
    };
  },
  Component: AcceptInvitation,
  action: accept,
  toaster: true,
});
