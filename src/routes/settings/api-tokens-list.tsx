import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { TOKEN_PREFIX } from "@/server/auth/api-token-secret";
import type { ApiToken } from "@/server/data/api-tokens";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { definePage, type PageProps, type RouteContext } from "../types";
import { BASE, type ListedToken } from "./api-tokens-shared";

/**
 * /settings/api-tokens (edit-users, issue 27): the organization's API tokens, with their state
 * and last use, a link to make one and to revoke each. The API reference is one link away.
 */

const stateTone = {
  active: "bg-green-50 text-green-800 ring-green-200",
  expired: "bg-slate-100 text-slate-700 ring-slate-200",
  revoked: "bg-red-50 text-red-800 ring-red-200",
} as const;

type ListData = { tokens: ListedToken[]; accountNames: Record<string, string> };

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
