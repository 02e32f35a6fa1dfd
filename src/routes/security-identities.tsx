import { TRPCError } from "@trpc/server";
import { Island } from "../islands/runtime/island";
import { formatUtcMinute } from "../schema/format";
import { api } from "../server/api/procedures-route";
import { usePage } from "../server/render/page-context";
import { ButtonLink } from "../ui/button";
import { PageHeader } from "../ui/page-header";
import { ownItem } from "./own-item";
import { SecurityListSection } from "./security-section";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

/** A linked identity as /security shows it (users.listIdentityProvidersForUser). */
export type IdentityView = {
  id: string;
  providerId: string;
  providerName: string;
  email: string;
  linkedAt: string;
  lastUsedAt: string | null;
};

const unlinkPath = (id: string) => `/security/identities/${encodeURIComponent(id)}/unlink`;

/**
 * The linked identities section of /security: each provider account that signs the user in,
 * with an Unlink button (a plain form; refused while it is the last way to sign in).
 */
export function LinkedIdentities({ identities }: { identities: IdentityView[] }) {
  const { t, language } = usePage();
  return (
    <SecurityListSection
      id="identities-heading"
      title={t("security.identities")}
      lead={t("security.identitiesLead")}
      empty={t("security.noIdentities")}
      items={identities.map((identity) => (
        <li key={identity.id} className="px-4 py-4" data-identity={identity.providerId}>
          <h4 className="font-medium text-slate-900">{identity.providerName}</h4>
          <p className="mt-1 text-sm break-all text-slate-700">{identity.email}</p>
          <p className="text-sm text-slate-700">
            {t("security.identityLinkedAt", { when: formatUtcMinute(language, identity.linkedAt) })}
          </p>
          <p className="text-sm text-slate-700">
            {identity.lastUsedAt
              ? t("security.identityLastUsed", { when: formatUtcMinute(language, identity.lastUsedAt) })
              : t("security.identityNeverUsed")}
          </p>
          <div className="mt-3">
            <Island
              name="confirm-form"
              props={{
                action: unlinkPath(identity.id),
                label: String(t("security.unlink")),
                srLabel: `${identity.providerName} (${identity.email})`,
                variant: "white",
              }}
            />
          </div>
        </li>
      ))}
    />
  );
}

/** The caller's identity named in the URL; anyone else's is NOT_FOUND, like one that never existed. */
function ownIdentity(c: RouteContext): Promise<IdentityView> {
  return ownItem(c, "identityId", api(c).users.listIdentityProvidersForUser(), "security.identityNotFound");
}

function UnlinkIdentity({ data, form }: PageProps<IdentityView>) {
  const { t } = usePage();
  const error = form?.errors.form;
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.unlinkIdentity"))} />
      <p className="text-slate-800">{t("security.unlinkQuestion", { provider: data.providerName, email: data.email })}</p>
      <p className="mt-2 text-sm text-slate-600">{t("security.unlinkHelp", { provider: data.providerName })}</p>
      <div className="mt-6 flex flex-wrap items-start gap-3">
        <Island
          name="confirm-form"
          props={{
            action: unlinkPath(data.id),
            label: String(t("security.unlink")),
            error: error ? String(t(error)) : undefined,
          }}
        />
        <ButtonLink href="/security" variant="white" size="sm">
          {t("security.cancel")}
        </ButtonLink>
      </div>
    </div>
  );
}

async function unlink(c: RouteContext): Promise<ActionResult> {
  const identity = await ownIdentity(c);
  try {
    await api(c).users.unlinkExternalIdentity({ id: identity.id });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "PRECONDITION_FAILED") {
      return { ok: false, status: 409, form: { values: {}, errors: { form: "security.unlinkLastWayIn" } } };
    }
    throw error;
  }
  return {
    ok: true,
    redirect: "/security",
    flash: { type: "success", key: "security.unlinked", values: { provider: identity.providerName } },
  };
}

/** /security/identities/:identityId/unlink: the confirmation (and where a refusal shows), then the unlink. */
export const unlinkIdentityPage = definePage<IdentityView>({
  load: ownIdentity,
  Component: UnlinkIdentity,
  action: unlink,
  toaster: true,
});
