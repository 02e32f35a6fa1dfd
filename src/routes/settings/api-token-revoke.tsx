import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { translatorFor } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { BASE, type ListedToken, postedFields } from "./api-tokens-shared";

/** /settings/api-tokens/revoke/:tokenId: a confirmation, then the token is refused at once. */

type OneData = { token: ListedToken };

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
