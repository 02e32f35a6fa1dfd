import { Island } from "../islands/runtime/island";
import { formatUtcMinute } from "../schema/format";
import { api } from "../server/api/procedures-route";
import { passkeyName } from "../server/api/routers/users-passkeys";
import { usePage } from "../server/render/page-context";
import { Button, ButtonLink, buttonClass } from "../ui/button";
import { Field } from "../ui/field";
import { PageHeader } from "../ui/page-header";
import { ownItem } from "./own-item";
import { SecurityListSection } from "./security-section";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "./types";

/** A passkey as the list shows it (users.listPasskeysForUser). */
export type PasskeyView = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: "singleDevice" | "multiDevice";
  backedUp: boolean;
};

const path = (id: string, what: "rename" | "remove") => `/security/passkeys/${encodeURIComponent(id)}/${what}`;

/**
 * The passkeys section of /security: each passkey with when it was added and last used,
 * renamed and removed with plain forms (so it all works without JavaScript), and the island
 * that adds one (which needs JavaScript: the page says so without it).
 */
export function PasskeyList({ passkeys }: { passkeys: PasskeyView[] }) {
  const { t, language } = usePage();
  return (
    <SecurityListSection
      id="passkeys-heading"
      title={t("security.passkeys")}
      lead={t("passkeys.lead")}
      empty={t("security.noPasskeys")}
      items={passkeys.map((passkey) => (
        <li key={passkey.id} className="px-4 py-4">
          <h4 className="font-medium break-words text-slate-900">{passkey.name}</h4>
          <p className="mt-1 text-sm text-slate-700">
            {t("passkeys.addedAt", { when: formatUtcMinute(language, passkey.createdAt) })}
          </p>
          <p className="text-sm text-slate-700">
            {passkey.lastUsedAt
              ? t("passkeys.lastUsedAt", { when: formatUtcMinute(language, passkey.lastUsedAt) })
              : t("passkeys.neverUsed")}
          </p>
          <p className="text-sm text-slate-600">{t(passkey.backedUp ? "passkeys.synced" : "passkeys.singleDevice")}</p>
          <div className="mt-3 flex flex-wrap items-start gap-3">
            <details className="group">
              <summary className={`${buttonClass("white", "sm")} cursor-pointer list-none`}>
                {t("passkeys.rename")}
                <span className="sr-only"> {passkey.name}</span>
              </summary>
              <form method="post" action={path(passkey.id, "rename")} className="mt-3 flex flex-col gap-2">
                <Field
                  label={String(t("passkeys.nameLabel"))}
                  name="name"
                  defaultValue={passkey.name}
                  maxLength={60}
                  required
                  autoComplete="off"
                />
                <div>
                  <Button type="submit" size="sm">
                    {t("passkeys.saveName")}
                  </Button>
                </div>
              </form>
            </details>
            <ButtonLink href={path(passkey.id, "remove")} variant="danger" size="sm">
              {t("passkeys.remove")}
              <span className="sr-only"> {passkey.name}</span>
            </ButtonLink>
          </div>
        </li>
      ))}
    >
      <div className="mt-4">
        <Island name="passkeys" props={{}} />
        <noscript>
          <p className="text-sm text-slate-700">{t("passkeys.needsJavaScript")}</p>
        </noscript>
      </div>
    </SecurityListSection>
  );
}

/** The caller's passkey named in the URL; anyone else's is NOT_FOUND, like one that never existed. */
function ownPasskey(c: RouteContext): Promise<PasskeyView> {
  return ownItem(c, "passkeyId", api(c).users.listPasskeysForUser(), "passkeys.notFound");
}

function RenamePasskey({ data, form }: PageProps<PasskeyView>) {
  const { t } = usePage();
  const error = form?.errors.name;
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.renamePasskey"))} description={t("passkeys.renameIntro", { name: data.name })} />
      <form method="post" action={path(data.id, "rename")} noValidate className="flex flex-col gap-4">
        <Field
          label={String(t("passkeys.nameLabel"))}
          name="name"
          defaultValue={form?.values.name ?? data.name}
          maxLength={60}
          required
          autoComplete="off"
          error={error ? String(t(error)) : undefined}
        />
        <div className="flex gap-3">
          <Button type="submit">{t("passkeys.saveName")}</Button>
          <ButtonLink href="/security" variant="white">
            {t("passkeys.cancel")}
          </ButtonLink>
        </div>
      </form>
    </div>
  );
}

async function rename(c: RouteContext): Promise<ActionResult> {
  const passkey = await ownPasskey(c);
  const raw = (await c.req.parseBody()).name;
  const typed = typeof raw === "string" ? raw : "";
  const parsed = passkeyName.safeParse(typed);
  if (!parsed.success) {
    return { ok: false, status: 400, form: { values: { name: typed }, errors: { name: parsed.error.issues[0]?.message ?? "" } } };
  }
  await api(c).users.renamePasskey({ id: passkey.id, name: parsed.data });
  return { ok: true, redirect: "/security", flash: { type: "success", key: "passkeys.renamed", values: { name: parsed.data } } };
}

/** /security/passkeys/:passkeyId/rename: the rename form on its own (and where its errors show). */
export const renamePasskeyPage = definePage<PasskeyView>({ load: ownPasskey, Component: RenamePasskey, action: rename });

function RemovePasskey({ data }: PageProps<PasskeyView>) {
  const { t } = usePage();
  return (
    <div className="mx-auto max-w-md">
      <PageHeader title={String(t("routes.removePasskey"))} />
      <p className="text-slate-800">{t("passkeys.removeQuestion", { name: data.name })}</p>
      <p className="mt-2 text-sm text-slate-600">{t("passkeys.removeHelp")}</p>
      <form method="post" action={path(data.id, "remove")} className="mt-6 flex gap-3">
        <Button type="submit" variant="danger">
          {t("passkeys.confirmRemove")}
        </Button>
        <ButtonLink href="/security" variant="white">
          {t("passkeys.cancel")}
        </ButtonLink>
      </form>
    </div>
  );
}

async function remove(c: RouteContext): Promise<ActionResult> {
  const passkey = await ownPasskey(c);
  await api(c).users.removePasskey({ id: passkey.id });
  return { ok: true, redirect: "/security", flash: { type: "success", key: "passkeys.removed", values: { name: passkey.name } } };
}

/** /security/passkeys/:passkeyId/remove: the confirmation step, then the removal. */
export const removePasskeyPage = definePage<PasskeyView>({ load: ownPasskey, Component: RemovePasskey, action: remove });
