import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { Island } from "@/islands/runtime/island";
import type { SettingsField } from "@/islands/settings-form.island";
import { formatDate } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { Refusal } from "@/server/api/refusal";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import type { DomainClaim, IdentityProvider } from "@/server/data/identity-providers";
import { usePage } from "@/server/render/page-context";
import { proofRecordName, proofRecordValue } from "@/server/sso/domain-proof";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { Table } from "@/ui/table";
import { organizationOptions } from "../accounts/organization-options";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";

/**
 * /settings/identity-providers (edit-users): the single sign-on providers of the caller's
 * organization tree, added, edited and deleted with forms that work without JavaScript.
 * Authorization and tenancy are the identityProviders procedures' (they are called in process).
 */

const BASE = "/settings/identity-providers";
const FIELDS = ["orgId", "name", "issuer", "clientId", "clientSecret", "emailDomains", "version"] as const;

function callbackUrl(origin: string, id: string) {
  return `${origin}/api/auth/callback/${encodeURIComponent(id)}`;
}

function translatedErrors(errors: Record<string, string> | undefined, t: (key: string) => unknown) {
  return Object.fromEntries(Object.entries(errors ?? {}).map(([field, key]) => [field, String(t(key))]));
}

async function postedValues(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") values[name] = value;
  return values;
}

function domainsOf(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/**
 * A procedure's refusal as the form's answer, with what was typed (never the secret): bad
 * input on its fields, a stale version with an offer to reload. Anything else (another
 * tenant's provider) goes on to the route error screen.
 */
function refusal(error: unknown, posted: Record<string, string>): ActionResult {
  const { clientSecret: _secret, ...values } = posted;
  if (!(error instanceof TRPCError)) throw error;
  if (error.cause instanceof Refusal) {
    return { ok: false, status: 400, form: { values, errors: { [error.cause.field]: error.cause.key } } };
  }
  if (error.code === "BAD_REQUEST" && error.cause instanceof z.ZodError) {
    const errors: Record<string, string> = {};
    for (const issue of error.cause.issues) {
      const field = String(issue.path[0] ?? "form");
      const key = issue.message.startsWith("validation.") ? issue.message : "validation.Required";
      errors[(FIELDS as readonly string[]).includes(field) ? field : "form"] ??= key;
    }
    return { ok: false, status: 400, form: { values, errors } };
  }
  if (error.code === "CONFLICT") {
    return {
      ok: false,
      status: 409,
      form: { values, errors: { form: "errors.staleEdit", conflict: "identityProviders.reload" } },
    };
  }
  if (error.code === "NOT_FOUND" && posted.orgId !== undefined && !posted.version) {
    return { ok: false, status: 404, form: { values, errors: { orgId: "errors.organizationNotFound" } } };
  }
  throw error;
}

// The list

type ListData = { providers: IdentityProvider[]; origin: string };

function ProviderList({ data }: PageProps<ListData>) {
  const { t, language } = usePage();
  const add = <ButtonLink href={`${BASE}/add`}>{t("identityProviders.addTitle")}</ButtonLink>;
  return (
    <>
      <PageHeader title={String(t("routes.identityProviders"))} description={t("identityProviders.lead")} actions={add} />
      <Table
        caption={String(t("routes.identityProviders"))}
        rows={data.providers}
        rowKey={(provider) => provider.id}
        empty={<EmptyState title={String(t("identityProviders.empty"))} description={String(t("identityProviders.emptyHelp"))} />}
        columns={[
          {
            key: "name",
            header: String(t("identityProviders.name")),
            cell: (provider) => (
              <a href={`${BASE}/edit/${encodeURIComponent(provider.id)}`} className="font-medium text-brand-700 underline">
                {provider.name}
              </a>
            ),
          },
          { key: "organization", header: String(t("identityProviders.organization")), cell: (p) => p.organizationName },
          {
            key: "domains",
            header: String(t("identityProviders.emailDomains")),
            cell: (p) =>
              p.domainClaims
                .map((claim) => (claim.provenAt ? claim.domain : `${claim.domain} (${t("identityProviders.unproven")})`))
                .join(", "),
          },
          {
            key: "issuer",
            header: String(t("identityProviders.issuer")),
            cell: (p) => <span className="break-all">{p.issuer}</span>,
          },
          {
            key: "updated",
            header: String(t("identityProviders.updated")),
            cell: (p) => formatDate(language, p.updatedAt, { dateStyle: "medium", timeZone: "UTC" }),
          },
          {
            key: "actions",
            header: String(t("identityProviders.actions")),
            cell: (provider) => (
              <a href={`${BASE}/delete/${encodeURIComponent(provider.id)}`} className="font-medium text-red-700 underline">
                {t("identityProviders.delete")}
                <span className="sr-only"> {provider.name}</span>
              </a>
            ),
          },
        ]}
      />
    </>
  );
}

export const identityProvidersPage = definePage<ListData>({
  load: async (c) => ({ providers: await api(c).identityProviders.list(), origin: new URL(c.req.url).origin }),
  Component: ProviderList,
  toaster: true,
});

// Add

/** A provider's fields as the settings-form island renders them. The client secret is write-only: never shown. */
function providerFields(
  t: (key: string) => unknown,
  values: Record<string, string>,
  organization: SettingsField,
  hasClientSecret: boolean,
): SettingsField[] {
  const text = (key: string) => String(t(key));
  return [
    organization,
    {
      kind: "text",
      name: "name",
      label: text("identityProviders.name"),
      value: values.name ?? "",
      rule: "name",
      subject: "identityProviderName",
    },
    {
      kind: "url",
      name: "issuer",
      label: text("identityProviders.issuer"),
      value: values.issuer ?? "",
      hint: text("identityProviders.issuerHint"),
      rule: "issuer",
    },
    {
      kind: "text",
      name: "clientId",
      label: text("identityProviders.clientId"),
      value: values.clientId ?? "",
      rule: "required",
    },
    {
      kind: "password",
      name: "clientSecret",
      label: text("identityProviders.clientSecret"),
      value: "",
      hint: text(hasClientSecret ? "identityProviders.clientSecretKeep" : "identityProviders.clientSecretHint"),
      autoComplete: "new-password",
    },
    {
      kind: "text",
      name: "emailDomains",
      label: text("identityProviders.emailDomains"),
      value: values.emailDomains ?? "",
      hint: text("identityProviders.emailDomainsHint"),
      rule: "domains",
    },
  ];
}

type AddData = { organizations: OrganizationInTree[]; ownOrgId: string };

function AddProvider({ data, form }: PageProps<AddData>) {
  const { t } = usePage();
  const values = form?.values ?? { orgId: data.ownOrgId, name: "", issuer: "", clientId: "", emailDomains: "" };
  return (
    <>
      <PageHeader title={String(t("routes.addIdentityProvider"))} description={t("identityProviders.addLead")} />
      <Island
        name="settings-form"
        props={{
          networkErrorKey: "identityForm.networkError",
          action: `${BASE}/add`,
          fields: providerFields(
            t,
            values,
            {
              kind: "select",
              name: "orgId",
              label: String(t("identityProviders.organization")),
              value: values.orgId ?? "",
              options: organizationOptions(data.organizations),
            },
            false,
          ),
          submitLabel: String(t("identityProviders.add")),
          errors: translatedErrors(form?.errors, t),
        }}
      />
      <p className="mt-6 text-sm">
        <a href={BASE} className="font-medium text-brand-700 underline">
          {t("identityProviders.backToList")}
        </a>
      </p>
    </>
  );
}

async function addProvider(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  try {
    const provider = await api(c).identityProviders.add({
      orgId: posted.orgId ?? "",
      name: posted.name ?? "",
      issuer: posted.issuer ?? "",
      clientId: posted.clientId ?? "",
      clientSecret: posted.clientSecret ?? "",
      emailDomains: domainsOf(posted.emailDomains ?? ""),
    });
    return {
      ok: true,
      redirect: `${BASE}/edit/${encodeURIComponent(provider.id)}`,
      flash: { type: "success", key: "identityProviders.added", values: { name: provider.name } },
    };
  } catch (error) {
    return refusal(error, posted);
  }
}

export const addIdentityProviderPage = definePage<AddData>({
  load: async (c) => {
    const user = c.get("user");
    if (!user) return c.notFound();
    return { organizations: await api(c).organizations.list(), ownOrgId: user.orgId };
  },
  Component: AddProvider,
  action: addProvider,
  toaster: true,
});

// Edit

type OneData = { provider: IdentityProvider; origin: string; isVendor: boolean };

async function loadOne(c: RouteContext): Promise<OneData> {
  const caller = api(c);
  const provider = await caller.identityProviders.details({ id: c.req.param("identityProviderId") ?? "" });
  const own = await caller.organizations.details({ id: c.get("user")?.orgId ?? "" });
  return { provider, origin: new URL(c.req.url).origin, isVendor: own.kind === "vendor" };
}

/**
 * Each claimed domain, whether it is proven, and for an unproven one the TXT record to publish
 * with a button to check it (and, for the vendor organization, one to approve it). Plain forms.
 */
function DomainClaims({ provider, isVendor }: { provider: IdentityProvider; isVendor: boolean }) {
  const { t } = usePage();
  const action = `${BASE}/edit/${encodeURIComponent(provider.id)}/domains`;
  const state = (claim: DomainClaim) => t(`identityProviders.domainState.${claim.provenBy ?? "unproven"}`);
  return (
    <section className="mb-6 max-w-3xl" aria-labelledby="domain-claims">
      <h2 id="domain-claims" className="text-lg font-semibold text-slate-900">
        {t("identityProviders.domainsTitle")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("identityProviders.domainsLead")}</p>
      <ul className="mt-3 space-y-3">
        {provider.domainClaims.map((claim) => (
          <li
            key={claim.domain}
            className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm"
            data-domain-claim={claim.domain}
          >
            <p className="font-medium text-slate-900">{claim.domain}</p>
            <p className={claim.provenAt ? "text-green-800" : "text-amber-900"}>{state(claim)}</p>
            {!claim.provenAt && claim.token && (
              <>
                <dl className="mt-2 grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-3">
                  <dt className="text-slate-600">{t("identityProviders.recordName")}</dt>
                  <dd className="font-mono break-all">{proofRecordName(claim.domain)}</dd>
                  <dt className="text-slate-600">{t("identityProviders.recordValue")}</dt>
                  <dd className="font-mono break-all">{proofRecordValue(claim.token)}</dd>
                </dl>
                <div className="mt-3 flex flex-wrap gap-2">
                  <form method="post" action={action}>
                    <input type="hidden" name="domain" value={claim.domain} />
                    <button
                      type="submit"
                      name="intent"
                      value="verify"
                      className="rounded-md bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                    >
                      {t("identityProviders.verify")}
                      <span className="sr-only"> {claim.domain}</span>
                    </button>
                  </form>
                  {isVendor && (
                    <form method="post" action={action}>
                      <input type="hidden" name="domain" value={claim.domain} />
                      <button
                        type="submit"
                        name="intent"
                        value="approve"
                        className="rounded-md bg-white px-3 py-1.5 font-semibold text-slate-900 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                      >
                        {t("identityProviders.approve")}
                        <span className="sr-only"> {claim.domain}</span>
                      </button>
                    </form>
                  )}
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * POST /settings/identity-providers/edit/:id/domains: checks a claim's DNS record (or approves it,
 * for the vendor organization) and goes back to the provider's page with what happened.
 */
async function proveDomain(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  const id = c.req.param("identityProviderId") ?? "";
  const here = `${BASE}/edit/${encodeURIComponent(id)}`;
  const domain = (posted.domain ?? "").trim().toLowerCase();
  try {
    const input = { id, domain };
    if (posted.intent === "approve") await api(c).identityProviders.approveDomain(input);
    else await api(c).identityProviders.verifyDomain(input);
    return { ok: true, redirect: here, flash: { type: "success", key: "identityProviders.domainProven", values: { domain } } };
  } catch (error) {
    if (error instanceof TRPCError && error.cause instanceof Refusal && error.code !== "NOT_FOUND") {
      const values = { name: proofRecordName(domain) };
      return { ok: true, redirect: here, flash: { type: "error", key: error.cause.key, values } };
    }
    throw error;
  }
}

export const identityProviderDomainsPage = definePage<null>({
  load: async (c) => c.redirect(`${BASE}/edit/${encodeURIComponent(c.req.param("identityProviderId") ?? "")}`, 303),
  Component: () => null,
  action: proveDomain,
});

function EditProvider({ data, form }: PageProps<OneData>) {
  const { t } = usePage();
  const { provider } = data;
  const values = form?.values ?? {
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    emailDomains: provider.emailDomains.join(", "),
    version: String(provider.version),
  };
  const here = `${BASE}/edit/${encodeURIComponent(provider.id)}`;
  return (
    <>
      <PageHeader
        title={String(t("routes.editIdentityProvider"))}
        description={provider.name}
        actions={
          <ButtonLink href={`${BASE}/delete/${encodeURIComponent(provider.id)}`} variant="danger">
            {t("identityProviders.delete")}
          </ButtonLink>
        }
      />
      <div className="mb-6 max-w-xl rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">
        <p className="font-medium text-slate-900">{t("identityProviders.redirectUri")}</p>
        <p className="mt-1 font-mono break-all" data-testid="redirect-uri">
          {callbackUrl(data.origin, provider.id)}
        </p>
        <p className="mt-1 text-slate-600">{t("identityProviders.redirectUriHelp")}</p>
      </div>
      <DomainClaims provider={provider} isVendor={data.isVendor} />
      <Island
        name="settings-form"
        props={{
          networkErrorKey: "identityForm.networkError",
          action: here,
          fields: [
            { kind: "hidden", name: "version", value: values.version ?? "" },
            ...providerFields(
              t,
              values,
              {
                kind: "note",
                name: "orgId",
                label: String(t("identityProviders.organization")),
                value: provider.organizationName,
              },
              provider.hasClientSecret,
            ),
          ],
          submitLabel: String(t("identityProviders.save")),
          errors: translatedErrors(form?.errors, t),
          reload: { href: here, text: String(t("identityProviders.reload")) },
        }}
      />
      <p className="mt-6 text-sm">
        <a href={BASE} className="font-medium text-brand-700 underline">
          {t("identityProviders.backToList")}
        </a>
      </p>
    </>
  );
}

async function updateProvider(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  const id = c.req.param("identityProviderId") ?? "";
  try {
    const provider = await api(c).identityProviders.update({
      id,
      version: Number(posted.version ?? 0) || 0,
      name: posted.name ?? "",
      issuer: posted.issuer ?? "",
      clientId: posted.clientId ?? "",
      clientSecret: posted.clientSecret ?? "",
      emailDomains: domainsOf(posted.emailDomains ?? ""),
    });
    return {
      ok: true,
      redirect: BASE,
      flash: { type: "success", key: "identityProviders.saved", values: { name: provider.name } },
    };
  } catch (error) {
    return refusal(error, posted);
  }
}

export const editIdentityProviderPage = definePage<OneData>({
  load: loadOne,
  Component: EditProvider,
  action: updateProvider,
  toaster: true,
});

// Delete

function DeleteProvider({ data, form }: PageProps<OneData>) {
  const { t } = usePage();
  const { provider } = data;
  const error = form?.errors.form;
  return (
    <div className="max-w-xl">
      <PageHeader title={String(t("routes.deleteIdentityProvider"))} />
      <p className="text-slate-800">{t("identityProviders.deleteQuestion", { name: provider.name })}</p>
      <p className="mt-2 text-sm text-slate-600">{t("identityProviders.deleteHelp", { name: provider.name })}</p>
      <div className="mt-6 flex flex-wrap items-start gap-3">
        <Island
          name="confirm-form"
          props={{
            action: `${BASE}/delete/${encodeURIComponent(provider.id)}`,
            label: String(t("identityProviders.confirmDelete")),
            srLabel: provider.name,
            hidden: { version: String(form?.values.version ?? provider.version) },
            error: error ? String(t(error)) : undefined,
          }}
        />
        <ButtonLink href={BASE} variant="white" size="sm">
          {t("identityProviders.cancel")}
        </ButtonLink>
      </div>
    </div>
  );
}

async function deleteProvider(c: RouteContext): Promise<ActionResult> {
  const posted = await postedValues(c);
  const id = c.req.param("identityProviderId") ?? "";
  const provider = await api(c).identityProviders.details({ id });
  try {
    await api(c).identityProviders.delete({ id, version: Number(posted.version ?? 0) || 0 });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "CONFLICT") {
      // Someone changed it meanwhile: confirm again against what it is now.
      return {
        ok: false,
        status: 409,
        form: { values: { version: String(provider.version) }, errors: { form: "errors.staleEdit" } },
      };
    }
    throw error;
  }
  return {
    ok: true,
    redirect: BASE,
    flash: { type: "success", key: "identityProviders.deleted", values: { name: provider.name } },
  };
}

export const deleteIdentityProviderPage = definePage<OneData>({
  load: loadOne,
  Component: DeleteProvider,
  action: deleteProvider,
  toaster: true,
});
