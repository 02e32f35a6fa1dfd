import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { MAX_TOKEN_DAYS, type tokenRoles } from "@/server/api/routers/api-tokens";
import { TOKEN_PREFIX } from "@/server/auth/api-token-secret";
import { grantableRoles, type Role } from "@/server/auth/roles";
import type { ApiToken } from "@/server/data/api-tokens";
import { AppError } from "@/server/errors";
import { translatorFor } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SelectField } from "@/ui/field";
import { PlainScript } from "@/ui/plain-script";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { PostForm, refusedForm, TextInput, useMessage } from "../devices/forms";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";

/**
 * /settings/api-tokens (edit-users, issue 27): the organization's API tokens, made and revoked
 * with plain forms. A new token's secret is the add form's answer itself (no redirect, which
 * would need keeping it somewhere): shown once, never stored, the page not cached.
 */

const BASE = "/settings/api-tokens";
const EXPIRY_CHOICES = [30, 90, 180, MAX_TOKEN_DAYS] as const;
const FIELDS = ["name", "role", "accountIds", "scope", "expiresInDays"] as const;

type Listed = ApiToken & { state: "active" | "expired" | "revoked" };

const stateTone = {
  active: "bg-green-50 text-green-800 ring-green-200",
  expired: "bg-slate-100 text-slate-700 ring-slate-200",
  revoked: "bg-red-50 text-red-800 ring-red-200",
} as const;

type ListData = { tokens: Listed[]; accountNames: Record<string, string> };

/** Names of the accounts tokens are limited to (ids of accounts since deleted show as they are). */
async function accountNamesOf(c: RouteContext, tokens: readonly ApiToken[]): Promise<Record<string, string>> {
  const ids = [...new Set(tokens.flatMap((token) => token.accountIds ?? []))];
  const caller = api(c);
  const found = await Promise.all(ids.map((id) => caller.accounts.details({ id }).catch(() => null)));
  return Object.fromEntries(found.filter((a) => a !== null).map((a) => [a._id, a.name]));
}

function TokenList({ data }: PageProps<ListData>) {
  const { t, language } = usePage();
  const text = (key: string, values?: Record<string, string>) => String(values ? t(key, values) : t(key));
  const when = (iso: string | null) => (iso ? formatDateTime(language, iso, "UTC") : text("apiTokens.never"));
  const add = <ButtonLink href={`${BASE}/add`}>{text("apiTokens.addTitle")}</ButtonLink>;
  return (
    <SettingsLayout current="api-tokens" title={text("routes.apiTokens")} actions={add}>
      <p className="mb-6 max-w-3xl text-sm text-slate-700">
        {text("apiTokens.lead")}{" "}
        <a href="/docs/api" className="font-medium text-brand-700 underline">
          {text("apiTokens.docsLink")}
        </a>
      </p>
      <Table
        caption={text("routes.apiTokens")}
        rows={data.tokens}
        rowKey={(token) => token.id}
        empty={<EmptyState title={text("apiTokens.empty")} description={text("apiTokens.emptyHelp")} />}
        columns={[
          { key: "name", header: text("apiTokens.name"), cell: (token) => <span className="font-medium">{token.name}</span> },
          { key: "role", header: text("apiTokens.role"), cell: (token) => text(`users.roles.${token.role}`) },
          {
            key: "accounts",
            header: text("apiTokens.accounts"),
            cell: (token) =>
              token.accountIds === null
                ? text("apiTokens.allAccounts")
                : token.accountIds.map((id) => data.accountNames[id] ?? id).join(", "),
          },
          {
            key: "hint",
            header: text("apiTokens.hint"),
            cell: (token) => <code className="font-mono text-xs">{`${TOKEN_PREFIX}${token.hint}…`}</code>,
          },
          {
            key: "created",
            header: text("apiTokens.created"),
            cell: (token) => (
              <>
                {when(token.createdAt)}
                <br />
                <span className="break-all text-slate-600">{token.createdByEmail}</span>
              </>
            ),
          },
          { key: "expires", header: text("apiTokens.expires"), cell: (token) => when(token.expiresAt) },
          {
            key: "lastUsed",
            header: text("apiTokens.lastUsed"),
            cell: (token) => (
              <span data-last-used={token.id}>
                {when(token.lastUsedAt)}
                {token.lastUsedAt && (
                  <>
                    <br />
                    <span className="break-all text-slate-600">
                      {[token.lastUsedAddress, token.lastUsedCountry].filter(Boolean).join(" · ")}
                    </span>
                  </>
                )}
              </span>
            ),
          },
          {
            key: "state",
            header: text("apiTokens.state"),
            cell: (token) => (
              <span
                className={`rounded px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${stateTone[token.state]}`}
                data-token-state={token.state}
              >
                {text(`apiTokens.states.${token.state}`)}
              </span>
            ),
          },
          {
            key: "actions",
            header: text("apiTokens.actions"),
            cell: (token) =>
              token.state === "revoked" ? null : (
                <a href={`${BASE}/revoke/${encodeURIComponent(token.id)}`} className="font-medium text-red-700 underline">
                  {text("apiTokens.revoke")}
                  <span className="sr-only"> {token.name}</span>
                </a>
              ),
          },
        ]}
      />
    </SettingsLayout>
  );
}

export const apiTokensPage = definePage<ListData>({
  load: async (c) => {
    const tokens = await api(c).apiTokens.list();
    return { tokens, accountNames: await accountNamesOf(c, tokens) };
  },
  Component: TokenList,
});

// Add

type AddData = { roles: Role[]; accounts: { id: string; name: string }[] };

/** The token just made: its secret, once, with a copy button where JavaScript runs. */
function CreatedToken({ name, token }: { name: string; token: string }) {
  const { t, assets } = usePage();
  const text = (key: string, values?: Record<string, string>) => String(values ? t(key, values) : t(key));
  return (
    <SettingsLayout current="api-tokens" title={text("apiTokens.createdTitle")}>
      <div className="max-w-2xl" data-created-token="">
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          <strong>{text("apiTokens.onceWarning", { name })}</strong>
        </p>
        <label htmlFor="api-token-secret" className="mt-6 block text-sm font-medium text-slate-800">
          {text("apiTokens.secretLabel")}
        </label>
        <div className="mt-1 flex flex-wrap items-center gap-2">
          <input
            id="api-token-secret"
            readOnly
            value={token}
            data-token-secret=""
            autoComplete="off"
            spellCheck={false}
            className="w-full min-w-0 flex-1 rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
          />
          <button
            type="button"
            hidden
            data-copy-secret=""
            data-copied-text={text("apiTokens.copied")}
            className="rounded-md bg-white px-3 py-2 text-sm font-semibold text-slate-900 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {text("apiTokens.copy")}
          </button>
          <span data-copy-status="" role="status" className="text-sm text-green-800" />
        </div>
        <p className="mt-2 text-sm text-slate-600">{text("apiTokens.secretHelp")}</p>
        <p className="mt-6 text-sm">
          <a href={BASE} className="font-medium text-brand-700 underline">
            {text("apiTokens.backToList")}
          </a>
        </p>
      </div>
      <PlainScript script={assets.plainScripts.copySecret} />
    </SettingsLayout>
  );
}

function AddToken({ data, form }: PageProps<AddData>) {
  const { t } = usePage();
  const message = useMessage();
  const text = (key: string, values?: Record<string, string>) => String(values ? t(key, values) : t(key));
  if (form?.values.token) return <CreatedToken name={form.values.name ?? ""} token={form.values.token} />;
  const values = form?.values ?? {};
  const chosen = new Set((values.accountIds ?? "").split("\n").filter(Boolean));
  const limited = values.scope === "some";
  const scopeError = message(form?.errors.accountIds ?? form?.errors.scope);
  return (
    <SettingsLayout current="api-tokens" title={text("routes.addApiToken")}>
      <p className="mb-6 max-w-xl text-sm text-slate-700">{text("apiTokens.addLead")}</p>
      <PostForm action={`${BASE}/add`} form={form} submit={text("apiTokens.create")}>
        <TextInput
          form={form}
          name="name"
          label={text("apiTokens.name")}
          hint={text("apiTokens.nameHint")}
          value=""
          required
          maxLength={80}
        />
        <SelectField
          label={text("apiTokens.role")}
          name="role"
          hint={text("apiTokens.roleHint")}
          defaultValue={values.role ?? (data.roles.includes("viewer") ? "viewer" : data.roles[0])}
          error={message(form?.errors.role)}
          options={data.roles.map((role) => ({ value: role, label: text(`users.roles.${role}`) }))}
        />
        <fieldset
          className="flex min-w-0 flex-col gap-2"
          aria-describedby={scopeError ? "field-accountIds-error" : undefined}
          id="field-accountIds"
        >
          <legend className="text-sm font-medium text-slate-800">{text("apiTokens.accounts")}</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="scope" value="all" defaultChecked={!limited} />
            {text("apiTokens.allAccounts")}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="scope" value="some" defaultChecked={limited} />
            {text("apiTokens.someAccounts")}
          </label>
          <ul className="ml-6 flex max-h-64 flex-col gap-1 overflow-y-auto">
            {data.accounts.map((account) => (
              <li key={account.id}>
                <label className="flex items-center gap-2 text-sm break-all">
                  <input type="checkbox" name="accountIds" value={account.id} defaultChecked={chosen.has(account.id)} />
                  {account.name}
                </label>
              </li>
            ))}
          </ul>
          {scopeError && (
            <p id="field-accountIds-error" className="text-sm font-medium text-red-700">
              {scopeError}
            </p>
          )}
        </fieldset>
        <SelectField
          label={text("apiTokens.expiry")}
          name="expiresInDays"
          hint={text("apiTokens.expiryHint")}
          defaultValue={values.expiresInDays ?? "90"}
          error={message(form?.errors.expiresInDays ?? form?.errors.expiresAt)}
          options={EXPIRY_CHOICES.map((days) => ({
            value: String(days),
            label: text("apiTokens.days", { number: String(days) }),
          }))}
        />
      </PostForm>
      <p className="mt-6 text-sm">
        <a href={BASE} className="font-medium text-brand-700 underline">
          {text("apiTokens.backToList")}
        </a>
      </p>
    </SettingsLayout>
  );
}

/** The form's fields, all values of repeated ones (the ticked accounts) joined by newlines. */
async function postedFields(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: true });
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const texts = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
    values[name] = texts.join("\n");
  }
  return values;
}

async function addToken(c: RouteContext): Promise<ActionResult> {
  const values = await postedFields(c);
  const limited = values.scope === "some";
  try {
    const created = await api(c).apiTokens.create({
      name: values.name ?? "",
      role: values.role as (typeof tokenRoles)[number],
      accountIds: limited ? (values.accountIds ?? "").split("\n").filter(Boolean) : null,
      expiresInDays: Number(values.expiresInDays) || 0,
    });
    // The answer is this page again, holding the secret: the one time it is shown (no-store, as every page).
    return { ok: false, status: 200, form: { values: { name: values.name ?? "", token: created.token }, errors: {} } };
  } catch (error) {
    return refusedForm(error, values, FIELDS);
  }
}

export const addApiTokenPage = definePage<AddData>({
  load: async (c) => {
    const user = c.get("user");
    if (!user) return c.notFound();
    const page = await api(c).accounts.list({ orgId: user.orgId, pageSize: 100 });
    return {
      roles: grantableRoles(user.role).filter((role) => role !== "case-agent"),
      accounts: page.items.map((account) => ({ id: account._id, name: account.name })),
    };
  },
  Component: AddToken,
  action: addToken,
});

// Revoke

type OneData = { token: Listed };

async function loadOne(c: RouteContext): Promise<OneData> {
  const id = c.req.param("tokenId") ?? "";
  const token = (await api(c).apiTokens.list()).find((one) => one.id === id);
  if (!token)
    throw new AppError(
      "NOT_FOUND",
      String(translatorFor(c.get("language"), c.get("settings").brandNamespace)("apiTokens.errors.notFound")),
    );
  return { token };
}

function RevokeToken({ data, form }: PageProps<OneData>) {
  const { t } = usePage();
  const { token } = data;
  const error = form?.errors.form;
  const text = (key: string, values?: Record<string, string>) => String(values ? t(key, values) : t(key));
  return (
    <SettingsLayout current="api-tokens" title={text("routes.revokeApiToken")}>
      <div className="max-w-xl">
        {token.state === "revoked" ? (
          <p className="text-slate-800">{text("apiTokens.alreadyRevoked", { name: token.name })}</p>
        ) : (
          <>
            <p className="text-slate-800">{text("apiTokens.revokeQuestion", { name: token.name })}</p>
            <p className="mt-2 text-sm text-slate-600">{text("apiTokens.revokeHelp")}</p>
          </>
        )}
        <div className="mt-6 flex flex-wrap items-start gap-3">
          {token.state !== "revoked" && (
            <Island
              name="confirm-form"
              props={{
                action: `${BASE}/revoke/${encodeURIComponent(token.id)}`,
                label: text("apiTokens.confirmRevoke"),
                srLabel: token.name,
                hidden: { version: String(form?.values.version ?? token.version) },
                error: error ? text(error) : undefined,
              }}
            />
          )}
          <ButtonLink href={BASE} variant="white" size="sm">
            {text("apiTokens.backToList")}
          </ButtonLink>
        </div>
      </div>
    </SettingsLayout>
  );
}

async function revokeToken(c: RouteContext): Promise<ActionResult> {
  const values = await postedFields(c);
  const { token } = await loadOne(c);
  try {
    await api(c).apiTokens.revoke({ id: token.id, version: Number(values.version ?? 0) || 0 });
  } catch (error) {
    if (error instanceof TRPCError && error.code === "CONFLICT") {
      return {
        ok: false,
        status: 409,
        form: { values: { version: String(token.version) }, errors: { form: "errors.staleEdit" } },
      };
    }
    throw error;
  }
  return { ok: true, redirect: BASE, flash: { type: "success", key: "apiTokens.revoked", values: { name: token.name } } };
}

export const revokeApiTokenPage = definePage<OneData>({
  load: loadOne,
  Component: RevokeToken,
  action: revokeToken,
});
