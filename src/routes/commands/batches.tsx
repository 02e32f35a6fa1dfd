import { TRPCError } from "@trpc/server";
import { actorLabel } from "@/schema/actor-label";
import { type CommandParams, type CommandType, paramsSummary } from "@/schema/fleet/commands";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import {
  type BatchCounts,
  type BatchRadio,
  type BatchState,
  batchStates,
  type CommandBatch,
} from "@/server/data/command-batches";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { PlainScript } from "@/ui/plain-script";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { CommandsFrame } from "./frame";
import { batchesHref, batchHref, commandHref } from "./paths";
import { type PageScope, pageScope } from "./scope";
import { CommandStateBadge } from "./state-badge";

/** Bulk command batches (issue 25): the list of an inventory's or account's batches, and one batch's page. */

const inScope = (scope: PageScope) => (scope.accountId ? { accountId: scope.accountId } : {});

function TargetWords({ batch }: { batch: CommandBatch }) {
  const { t } = usePage();
  const target = batch.target;
  if ("retryOf" in target) return <>{t("commands.batches.targetRetry")}</>;
  if ("uids" in target) return <>{t("commands.bulk.selection", { count: target.uids })}</>;
  const words = Object.entries(target.filter ?? {})
    .filter(([, v]) => v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
    .join("; ");
  return <>{words ? t("commands.bulk.filter", { filter: words }) : t("commands.bulk.everything")}</>;
}

type ListData = { scope: PageScope; items: CommandBatch[]; next: { createdAt: string; id: string } | null };

function BatchList({ data }: PageProps<ListData>) {
  const { t, language } = usePage();
  const { scope, items, next } = data;
  return (
    <CommandsFrame scope={scope}>
      <PageHeader title={String(t("routes.commandBatches"))} description={t("commands.batches.lead")} />
      {items.length === 0 ? (
        <p className="text-sm text-slate-700">{t("commands.batches.empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map((batch) => (
            <li key={batch.id} className="p-3 text-sm">
              <a href={batchHref(scope, batch.id)} className="font-medium text-brand-700 hover:underline">
                {t(`commands.types.${batch.type}`)} · {formatDateTime(language, batch.createdAt, scope.timeZone)}
              </a>
              <p className="text-slate-700">
                <TargetWords batch={batch} /> · {actorLabel(batch.createdByEmail, (key, values) => String(t(key, values)))}
              </p>
            </li>
          ))}
        </ul>
      )}
      {next && (
        <p className="mt-3">
          <a
            className="text-sm font-medium text-brand-700 hover:underline"
            href={batchesHref(scope, `?before=${encodeURIComponent(`${next.createdAt}|${next.id}`)}`)}
          >
            {t("commands.more")}
          </a>
        </p>
      )}
    </CommandsFrame>
  );
}

/** A plain form that cancels the batch's undelivered commands or retries its failed radios (no JavaScript needed). */
function BatchAction({ action, count, here }: { action: "cancel" | "retry"; count: number; here: string }) {
  const { t } = usePage();
  return (
    <section aria-labelledby={`${action}-heading`}>
      <h2 id={`${action}-heading`} className="mb-1 text-lg font-semibold">
        {t(`commands.batches.${action}Heading`)}
      </h2>
      <p className="mb-2 text-sm text-slate-700">{t(`commands.batches.${action}Help`, { count })}</p>
      <form method="post" action={here}>
        <input type="hidden" name="do" value={action} />
        <Button type="submit" variant={action === "cancel" ? "danger" : "primary"}>
          {t(`commands.batches.${action}`)}
        </Button>
      </form>
    </section>
  );
}

export const commandBatchesPage = definePage<ListData>({
  load: async (c) => {
    const scope = await pageScope(c);
    const [createdAt, id] = (c.req.query("before") ?? "").slice(0, 120).split("|");
    const after = createdAt && id ? { createdAt: createdAt.slice(0, 40), id: id.slice(0, 64) } : undefined;
    const page = await api(c).commandBatches.list({ ...inScope(scope), ...(after ? { after } : {}) });
    return { scope, ...page };
  },
  Component: BatchList,
});

type Data = {
  scope: PageScope;
  batch: CommandBatch;
  counts: BatchCounts;
  state: BatchState;
  radios: { items: BatchRadio[]; next: string | null };
  canAct: boolean;
};

function BatchPage({ data }: PageProps<Data>) {
  const { t, language, assets } = usePage();
  const { scope, batch, counts, state, radios, canAct } = data;
  const here = batchHref(scope, batch.id);
  const summary = paramsSummary(batch.type as CommandType, batch.params as CommandParams);
  const row = (label: string, value: React.ReactNode) => (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </div>
  );
  const undelivered = counts.queued + counts.sent;
  const retryable = counts.failed + counts.expired;
  const format = new Intl.NumberFormat(language);
  // Counts change by themselves only while commands wait or await their radio's report.
  const moving = undelivered + counts.delivered > 0;
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("commands.batches.title", { type: t(`commands.types.${batch.type}`) }))}
        actions={
          <ButtonLink href={batchesHref(scope)} variant="white" size="sm">
            {t("routes.commandBatches")}
          </ButtonLink>
        }
      />
      <div className="space-y-6">
        <dl className="grid gap-x-8 text-sm sm:grid-cols-2">
          {row(
            String(t("commands.detail.by")),
            actorLabel(batch.createdByEmail, (key, values) => String(t(key, values))),
          )}
          {row(String(t("commands.batches.sentAt")), formatDateTime(language, batch.createdAt, scope.timeZone))}
          {row(String(t("commands.batches.target")), <TargetWords batch={batch} />)}
          {summary && row(String(t("commands.columns.details")), summary)}
          {row(String(t("commands.detail.expires")), formatDateTime(language, batch.expiresAt, scope.timeZone))}
          {batch.retryOf &&
            row(
              String(t("commands.batches.retryOf")),
              <a className="text-brand-700 hover:underline" href={batchHref(scope, batch.retryOf)}>
                {t("commands.batches.original")}
              </a>,
            )}
        </dl>
        <section aria-labelledby="counts-heading">
          <div className="mb-2 flex items-center justify-between">
            <h2 id="counts-heading" className="text-lg font-semibold">
              {t("commands.batches.counts", { count: counts.total })}
            </h2>
            <a href={`${here}?state=${state}`} className="text-sm font-medium text-brand-700 hover:underline">
              {t("commands.detail.refresh")}
            </a>
          </div>
          <ul
            className="flex flex-wrap gap-2"
            aria-live="polite"
            data-live-batch={moving ? batch.id : undefined}
            data-account-id={scope.accountId}
          >
            {batchStates.map((s) => (
              <li key={s}>
                <a
                  href={`${here}?state=${s}`}
                  aria-current={s === state ? "true" : undefined}
                  className={`inline-flex items-center gap-2 rounded-md border px-2 py-1 text-sm ${s === state ? "border-brand-600 bg-brand-50" : "border-slate-200 bg-white"}`}
                >
                  <CommandStateBadge state={s} />
                  <span data-count={s}>{format.format(counts[s])}</span>
                </a>
              </li>
            ))}
          </ul>
          {moving && <PlainScript script={assets.plainScripts.liveCounts} />}
        </section>
        <section aria-labelledby="radios-heading">
          <h2 id="radios-heading" className="mb-2 text-lg font-semibold">
            {t("commands.batches.radios", { state: t(`commands.states.${state}`) })}
          </h2>
          {radios.items.length === 0 ? (
            <p className="text-sm text-slate-700">{t("commands.batches.noRadios")}</p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm">
              {radios.items.map((radio) => (
                <li key={radio.id} className="flex flex-wrap items-center gap-2 p-2">
                  <a className="font-mono text-brand-700 hover:underline" href={commandHref(scope, radio.uid, radio.id)}>
                    {radio.uid}
                  </a>
                  {radio.code && <span className="text-slate-700">{radio.code}</span>}
                </li>
              ))}
            </ul>
          )}
          {radios.next && (
            <p className="mt-2">
              <a
                className="text-sm font-medium text-brand-700 hover:underline"
                href={`${here}?state=${state}&after=${encodeURIComponent(radios.next)}`}
              >
                {t("commands.more")}
              </a>
            </p>
          )}
        </section>
        {canAct && undelivered > 0 && <BatchAction action="cancel" count={undelivered} here={here} />}
        {canAct && retryable > 0 && <BatchAction action="retry" count={retryable} here={here} />}
      </div>
    </CommandsFrame>
  );
}

const batchParam = (c: RouteContext) => (c.req.param("batchId") ?? "").slice(0, 64);

async function act(c: RouteContext): Promise<ActionResult> {
  const scope = await pageScope(c);
  const batchId = batchParam(c);
  const here = batchHref(scope, batchId);
  const form = await c.req.parseBody();
  try {
    if (form.do === "retry") {
      const retry = await api(c).commandBatches.retry({ ...inScope(scope), batchId });
      return {
        ok: true,
        redirect: batchHref(scope, retry.batchId),
        flash: { type: "success", key: "commands.batches.retried", values: { count: retry.queued } },
      };
    }
    // Only a named action acts: anything else posted here changes nothing.
    if (form.do !== "cancel") return { ok: true, redirect: here };
    const { counts } = await api(c).commandBatches.cancel({ ...inScope(scope), batchId });
    return {
      ok: true,
      redirect: here,
      flash: { type: "success", key: "commands.batches.cancelled", values: { count: counts.cancelled } },
    };
  } catch (error) {
    if (error instanceof TRPCError && error.code === "BAD_REQUEST") {
      return { ok: true, redirect: here, flash: { type: "error", key: "commands.batches.errors.nothingToRetry" } };
    }
    throw error;
  }
}

/** commands/batches/{batchId}: who sent what to which target, counts per state, its radios per state, cancel, retry. */
export const commandBatchPage = definePage<Data>({
  load: async (c) => {
    const scope = await pageScope(c);
    const batchId = batchParam(c);
    const asked = c.req.query("state") ?? "";
    const state = ((batchStates as readonly string[]).includes(asked) ? asked : "failed") as BatchState;
    const after = c.req.query("after")?.slice(0, 64) || undefined;
    const [got, radios] = await Promise.all([
      api(c).commandBatches.get({ ...inScope(scope), batchId }),
      api(c).commandBatches.radios({ ...inScope(scope), batchId, state, ...(after ? { after } : {}) }),
    ]);
    return { scope, ...got, state, radios, canAct: Boolean(c.get("user")?.permissions["manage-devices"]) };
  },
  Component: BatchPage,
  action: act,
  toaster: true,
});
