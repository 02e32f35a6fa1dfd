import { Island } from "@/islands/runtime/island";
import { commandTypes, expiryChoices } from "@/schema/fleet/command-kinds";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { StatusMessage } from "@/ui/status-message";
import { formRefusal, postedValues, translatedErrors } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { CommandsFrame } from "./frame";
import { batchesHref, batchHref, bulkHref } from "./paths";
import { type PageScope, pageScope } from "./scope";
import { expiryFromForm, paramsFromForm, sendFields, typeFromForm } from "./send-values";

/**
 * The inventory's selection or filter, as it arrives in the URL (?uid=…&uid=… or the list's
 * filter fields) and travels on in the form's hidden fields.
 */
const filterFields = ["q", "account", "site", "model", "firmware", "assignment", "seen"] as const;
/** The inventory's query names (src/routes/devices/list-query.ts) as the procedures' filter names. */
const filterNames: Record<string, string> = { q: "search", site: "siteId" };
const SELECTION_MAX = 500;

type Chosen = { uids: string[] } | { filter: Record<string, string> };

function chosenFrom(values: (name: string) => string[]): Chosen {
  const uids = values("uid")
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean)
    .slice(0, SELECTION_MAX + 1);
  if (uids.length) return { uids };
  const filter: Record<string, string> = {};
  for (const field of filterFields) {
    const value = values(field)[0]?.trim();
    if (value) filter[field] = value.slice(0, 120);
  }
  return { filter };
}

function hiddenOf(chosen: Chosen): Record<string, string> {
  return "uids" in chosen ? { uid: chosen.uids.join(",") } : chosen.filter;
}

function queryOf(chosen: Chosen): string {
  const query = new URLSearchParams(hiddenOf(chosen)).toString();
  return query ? `?${query}` : "";
}

type Data = { scope: PageScope; chosen: Chosen };

function BulkSend({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { scope, chosen } = data;
  const described =
    "uids" in chosen
      ? t("commands.bulk.selection", { count: chosen.uids.length })
      : Object.keys(chosen.filter).length
        ? t("commands.bulk.filter", {
            filter: Object.entries(chosen.filter)
              .map(([k, v]) => `${k}: ${v}`)
              .join(", "),
          })
        : t("commands.bulk.everything");
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("routes.sendBulkCommand"))}
        description={t("commands.bulk.lead")}
        actions={
          <ButtonLink href={batchesHref(scope)} variant="white" size="sm">
            {t("routes.commandBatches")}
          </ButtonLink>
        }
      />
      <div className="mb-4">
        <StatusMessage tone="info">{described}</StatusMessage>
      </div>
      <Island
        name="command-form"
        props={{
          action: bulkHref(scope, queryOf(chosen)),
          types: commandTypes.filter((type) => type !== "stun"),
          expiryChoices: [...expiryChoices],
          values: form?.values ?? {},
          errors: translatedErrors(form?.errors, t),
          hidden: hiddenOf(chosen),
          submitLabel: String(t("commands.bulk.submit")),
        }}
      />
    </CommandsFrame>
  );
}

async function sendBulk(c: RouteContext): Promise<ActionResult> {
  const scope = await pageScope(c);
  const posted = await postedValues(c);
  const chosen = chosenFrom((name) => (posted[name] ? [posted[name]] : []));
  const type = typeFromForm(posted);
  try {
    const sent = await api(c).commands.sendBulk({
      ...(scope.accountId ? { accountId: scope.accountId } : {}),
      selection:
        "uids" in chosen
          ? { uids: chosen.uids }
          : {
              filter: Object.fromEntries(
                Object.entries(chosen.filter).map(([name, value]) => [filterNames[name] ?? name, value]),
              ),
            },
      type: type as Exclude<typeof type, "stun">,
      params: paramsFromForm(type, posted),
      ...(expiryFromForm(posted) !== undefined ? { expiryHours: expiryFromForm(posted) } : {}),
    });
    return {
      ok: true,
      redirect: batchHref(scope, sent.batchId),
      flash: {
        type: "success",
        key: sent.skipped ? "commands.bulk.sentSkipped" : "commands.bulk.sent",
        values: { count: sent.queued, queued: sent.queued, skipped: sent.skipped },
      },
    };
  } catch (error) {
    return formRefusal(error, posted, { fields: sendFields });
  }
}

/**
 * devices/send-command (manage-devices): one command to the inventory's selection or to every
 * radio its filter matches; the server makes the rows in one batch, never one request per radio.
 */
export const bulkSendPage = definePage<Data>({
  load: async (c) => ({ scope: await pageScope(c), chosen: chosenFrom((name) => c.req.queries(name) ?? []) }),
  Component: BulkSend,
  action: sendBulk,
  toaster: true,
});
