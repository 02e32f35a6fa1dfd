import { SEARCH_MAX_LENGTH } from "@/schema/text";
import { api } from "@/server/api/procedures-route";
import { MAX_TOKEN_DAYS, type tokenRoles } from "@/server/api/routers/api-tokens";
import { grantableRoles, type Role } from "@/server/auth/roles";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field, SelectField } from "@/ui/field";
import { PlainScript } from "@/ui/plain-script";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { PostForm, refusedForm, TextInput, useMessage } from "../devices/forms";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { BASE, postedFields } from "./api-tokens-shared";

/**
 * /settings/api-tokens/add: a plain form. The token's secret is the form's answer itself (no
 * redirect, which would need keeping it somewhere): shown once, never stored, not cached.
 */

const EXPIRY_CHOICES = [30, 90, 180, MAX_TOKEN_DAYS] as const;
const FIELDS = ["name", "role", "accountIds", "scope", "expiresInDays"] as const;

/** The accounts a token may be limited to: the first page by name, or those a search found. */
const ACCOUNTS_SHOWN = 100;

type AddData = { roles: Role[]; accounts: { id: string; name: string }[]; search: string; more: boolean };

/**
 * A plain GET search over the organization's accounts, shown when they do not all fit the list
 * (or a search is on): the add form then offers the accounts found.
 */
function AccountSearch({ search, more }: { search: string; more: boolean }) {
  const { t } = usePage();
  const text = (key: string, values?: Record<string, string>) => String(values ? t(key, values) : t(key));
  return (
    <form method="get" action={`${BASE}/add`} className="mb-6 flex max-w-xl flex-wrap items-end gap-2">
      <Field
        label={text("apiTokens.findAccounts")}
        name="search"
        id="api-token-account-search"
        defaultValue={search}
        maxLength={SEARCH_MAX_LENGTH}
        hint={more ? text("apiTokens.accountsShown", { number: String(ACCOUNTS_SHOWN) }) : undefined}
        className="min-w-0 flex-1"
      />
      <Button type="submit" variant="white">
        {text("apiTokens.find")}
      </Button>
    </form>
  );
}

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
  const here = data.search ? `${BASE}/add?search=${encodeURIComponent(data.search)}` : `${BASE}/add`;
  const scopeError = message(form?.errors.accountIds ?? form?.errors.scope);
  return (
    <SettingsLayout current="api-tokens" title={text("routes.addApiToken")}>
      <p className="mb-6 max-w-xl text-sm text-slate-700">{text("apiTokens.addLead")}</p>
      {(data.more || data.search) && <AccountSearch search={data.search} more={data.more} />}
      <PostForm action={here} form={form} submit={text("apiTokens.create")}>
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
    const search = (c.req.query("search") ?? "").slice(0, SEARCH_MAX_LENGTH);
    const page = await api(c).accounts.list({ orgId: user.orgId, search, pageSize: ACCOUNTS_SHOWN });
    return {
      roles: grantableRoles(user.role).filter((role) => role !== "case-agent"),
      accounts: page.items.map((account) => ({ id: account._id, name: account.name })),
      search,
      more: page.next !== null,
    };
  },
  Component: AddToken,
  action: addToken,
});
