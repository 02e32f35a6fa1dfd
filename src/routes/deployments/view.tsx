import { TRPCError } from "@trpc/server";
import { actorLabel } from "@/schema/actor-label";
import { allowedFrom, type DeploymentAction, isActive } from "@/schema/fleet/deployment-plan";
import type { FirmwareStage } from "@/schema/fleet/firmware-manifest";
import { type ShownState, shownStates } from "@/schema/fleet/states";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Archive } from "@/server/data/archives";
import type { DeploymentApproval } from "@/server/data/deployment-approval";
import type { Deployment, DeploymentCounts, DeploymentRadio } from "@/server/data/deployments";
import { usePage } from "@/server/render/page-context";
import { ArchiveList } from "@/ui/archives/archive-list";
import { Button, ButtonLink } from "@/ui/button";
import { SelectField } from "@/ui/field";
import { LivePart } from "@/ui/live-part";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { StatusMessage } from "@/ui/status-message";
import { Table } from "@/ui/table";
import { firmwarePackageHref } from "../firmware/paths";
import { postedValues } from "../settings/procedure-refusal";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { ApprovalPanel, decideFromPage } from "./approval-panel";
import { FirmwareStages } from "./firmware-stages";
import { LiveCounts } from "./live-counts";
import { deploymentHref, deploymentsHref } from "./paths";
import { requestKey } from "./request-key";
import { AwaitingApprovalBadge, StateBadge } from "./state-badge";

const RADIOS_PAGE = 50;
const actions: DeploymentAction[] = ["pause", "resume", "advance", "cancel"];

type Data = {
  account: AccountDetails;
  deployment: Deployment;
  counts: DeploymentCounts;
  /** The number the account's next deployment gets (the roll-back form's key). */
  nextNumber: number;
  filter: ShownState;
  radios: DeploymentRadio[];
  /** Where the radios' outcomes went once older than the account's retention. */
  archives: Archive[];
  nextAfter: string | null;
  canAct: boolean;
  /** The place its target names, by name (null: it names none). */
  targetPlace: string | null;
  approval: DeploymentApproval;
  /** The signed-in person may approve or reject: create-deployments, and not its author. */
  canDecide: boolean;
  /** A firmware deployment: its radios by stage, and the average progress of those downloading. */
  stages: Partial<Record<FirmwareStage, number>>;
  averageProgress: number | null;
};

/** Which radios it is for, in words: every radio, a saved group's conditions, or the failed of another. */
function TargetWords({ accountId, deployment, place }: { accountId: string; deployment: Deployment; place: string | null }) {
  const { t } = usePage();
  const target = deployment.target;
  if (target === null) return <>{t("deployments.target.all")}</>;
  const conditions = [
    place && t("deployments.target.place", { place }),
    target.model && t("deployments.target.model", { model: target.model }),
    target.firmware && t("deployments.target.firmware", { firmware: target.firmware }),
    target.models && t("deployments.target.models", { models: target.models.join(", ") }),
    ...(target.tags ?? []).map((tag) => t("deployments.target.tag", { tag })),
  ].filter(Boolean);
  if (target.kind === "failedOf")
    return (
      <a className="text-brand-700 hover:underline" href={deploymentHref(accountId, target.deploymentId)}>
        {t("deployments.target.failedOf", { number: target.number })}
      </a>
    );
  const words = target.none ? [String(t("deployments.target.none"))] : conditions.map(String);
  return (
    <>
      {target.groupName ? `${t("deployments.target.group", { name: target.groupName })}: ` : ""}
      {words.join(" · ")}
    </>
  );
}

/** The plan's pace in words, and how far the current phase has been offered. */
function PaceWords({ deployment }: { deployment: Deployment }) {
  const { t, language } = usePage();
  const pace = deployment.plan.pace;
  if (!pace) return null;
  const n = (value: number) => value.toLocaleString(language);
  const rule = pace.exponential
    ? t("deployments.pace.exponential", {
        start: n(pace.exponential.start),
        factor: pace.exponential.factor.toLocaleString(language),
        maximum: pace.maximumPerMinute ? n(pace.maximumPerMinute) : "—",
      })
    : t("deployments.pace.fixed", { maximum: n(pace.maximumPerMinute ?? 0) });
  const offering = deployment.state === "running" && deployment.paceAt !== null;
  return (
    <>
      {rule}
      {offering && ` · ${t("deployments.pace.offered", { offered: n(deployment.paceOffered) })}`}
    </>
  );
}

function Facts({
  accountId,
  deployment,
  timeZone,
  place,
  targeted,
}: {
  accountId: string;
  deployment: Deployment;
  timeZone: string;
  place: string | null;
  /** How many radios it is for (the stored count, or the phases' while the clock counts them). */
  targeted: number;
}) {
  const { t, language } = usePage();
  const s = deployment.switchover;
  const switchover =
    s.mode === "at"
      ? t("deployments.switchoverAt", { time: formatDateTime(language, s.at, timeZone) })
      : s.mode === "user-delay"
        ? t("deployments.switchoverDelay", { minutes: s.maxMinutes })
        : t("deployments.switchoverDelivery");
  const row = (label: string, value: React.ReactNode) => (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </div>
  );
  return (
    <dl className="grid gap-x-8 text-sm sm:grid-cols-2">
      {deployment.kind === "firmware" && deployment.package
        ? row(
            String(t("firmwareDeployment.package")),
            <a
              className="font-medium text-brand-700 hover:underline"
              href={firmwarePackageHref({ accountId }, deployment.package.id)}
              data-slot="deployment-package"
            >
              {t("deployments.firmwareVersion", { version: deployment.package.version })}
            </a>,
          )
        : row(String(t("deployments.columns.revision")), t("deployments.revision", { number: deployment.revisionNumber }))}
      {row(
        String(t("deployments.columns.phase")),
        t("deployments.phaseOf", { phase: deployment.phaseIndex + 1, phases: deployment.plan.phases.length }),
      )}
      {row(String(t("deployments.target.label")), <TargetWords accountId={accountId} deployment={deployment} place={place} />)}
      {row(String(t("deployments.targeted")), targeted.toLocaleString(language))}
      {row(String(t("deployments.switchover")), switchover)}
      {deployment.plan.pace && row(String(t("deployments.pace.label")), <PaceWords deployment={deployment} />)}
      {deployment.plan.retries &&
        row(
          String(t("deployments.retries.label")),
          t("deployments.retries.rule", {
            attempts: deployment.plan.retries.attempts,
            minutes: deployment.plan.retries.backoffMinutes,
          }),
        )}
      {row(
        String(t("deployments.columns.created")),
        `${formatDateTime(language, deployment.createdAt, timeZone)} · ${actorLabel(deployment.createdBy, (key, values) => String(t(key, values)))}`,
      )}
      {deployment.nextStepAt && row(String(t("deployments.nextStep")), formatDateTime(language, deployment.nextStepAt, timeZone))}
      {deployment.note && row(String(t("deployments.columns.note")), deployment.note)}
      <div className="py-1 sm:col-span-2">
        <dt className="font-medium text-slate-700">{t("deployments.plan")}</dt>
        <dd>
          <ol className="ml-5 list-decimal">
            {deployment.plan.phases.map((phase, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: phases are positional and never reorder
              <li key={`${phase.share}-${i + 1}`}>
                {t("deployments.phaseSummary", {
                  share: phase.share,
                  success: phase.successPercent,
                  next: t(phase.successAction === "pause" ? "confirmDeployment.successPause" : "confirmDeployment.successNext"),
                  error:
                    phase.errorKind === "count"
                      ? t("deployments.errorCount", { count: phase.errorValue, value: phase.errorValue })
                      : t("deployments.errorPercent", {
                          count: phase.errorMinimum,
                          value: phase.errorValue,
                          minimum: phase.errorMinimum,
                        }),
                  wait: phase.waitMinutes,
                })}
              </li>
            ))}
          </ol>
        </dd>
      </div>
    </dl>
  );
}

/** The radios a retry would be for: those that failed, rejected it or timed out. */
function failedRadios(counts: DeploymentCounts): number {
  return (counts.total.failed ?? 0) + (counts.total.rejected ?? 0) + (counts.total.timed_out ?? 0);
}

function Actions({
  account,
  deployment,
  nextNumber,
  failed,
}: {
  account: AccountDetails;
  deployment: Deployment;
  nextNumber: number;
  failed: number;
}) {
  const { t, language } = usePage();
  const href = deploymentHref(account._id, deployment.id);
  const possible = actions.filter((action) => allowedFrom[action].includes(deployment.state));
  return (
    <div className="flex flex-wrap gap-2">
      {possible.map((action) => (
        <form key={action} method="post" action={href}>
          <input type="hidden" name="do" value={action} />
          <input type="hidden" name="version" value={String(deployment.version)} />
          <Button type="submit" size="sm" variant={action === "cancel" ? "danger" : action === "pause" ? "secondary" : "primary"}>
            {t(
              `deployments.actions.${action === "advance" && deployment.phaseIndex + 1 >= deployment.plan.phases.length ? "finish" : action}`,
            )}
          </Button>
        </form>
      ))}
      {(deployment.kind === "firmware" ? deployment.previousPackage : deployment.previousRevisionId) && (
        <form method="post" action={href}>
          <input type="hidden" name="do" value="rollback" />
          <input type="hidden" name="idempotencyKey" value={requestKey(nextNumber)} />
          <Button type="submit" size="sm" variant="white">
            {deployment.kind === "firmware" && deployment.previousPackage
              ? t("firmwareDeployment.rollback", { version: deployment.previousPackage.version })
              : t("deployments.actions.rollback")}
          </Button>
        </form>
      )}
      {failed > 0 && deployment.state !== "scheduled" && (
        <form method="post" action={href}>
          <input type="hidden" name="do" value="retryFailed" />
          <input type="hidden" name="idempotencyKey" value={`${requestKey(nextNumber)}-retry`} />
          <Button type="submit" size="sm" variant="white">
            {t("deployments.actions.retryFailed", { formatted: failed.toLocaleString(language) })}
          </Button>
        </form>
      )}
    </div>
  );
}

function DeploymentView({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, deployment, counts, filter, radios, nextAfter, archives, canAct } = data;
  const href = deploymentHref(account._id, deployment.id);
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("deployments.numbered", { number: deployment.number }))}
        description={
          <LivePart name="deployment-state">
            {data.approval.approval === "pending" ? <AwaitingApprovalBadge /> : <StateBadge state={deployment.state} />}
          </LivePart>
        }
        actions={
          <ButtonLink href={deploymentsHref(account._id)} variant="white" size="sm">
            {t("routes.deployments")}
          </ButtonLink>
        }
      />
      <div className="space-y-6">
        <LivePart name="deployment-banner" block>
          {deployment.state === "paused" && deployment.pauseReason && (
            <StatusMessage tone="error">{t(`deployments.pausedBecause.${deployment.pauseReason}`)}</StatusMessage>
          )}
        </LivePart>
        <LivePart name="deployment-approval" block>
          <ApprovalPanel
            deployment={deployment}
            approval={data.approval}
            canDecide={data.canDecide}
            timeZone={account.timezone}
            action={href}
          />
        </LivePart>
        <LivePart name="deployment-facts" block>
          <Facts
            accountId={account._id}
            deployment={deployment}
            timeZone={account.timezone}
            place={data.targetPlace}
            targeted={
              deployment.targeted >= 0 ? deployment.targeted : counts.phases.reduce((sum, phase) => sum + phase.targeted, 0)
            }
          />
        </LivePart>
        <LivePart name="deployment-actions" block>
          {canAct && (
            <Actions account={account} deployment={deployment} nextNumber={data.nextNumber} failed={failedRadios(counts)} />
          )}
        </LivePart>
        <section aria-labelledby="counts-heading">
          <div className="mb-2 flex items-center justify-between">
            <h2 id="counts-heading" className="text-lg font-semibold">
              {t("deployments.countsHeading")}
            </h2>
            <a href={`${href}?state=${filter}`} className="text-sm font-medium text-brand-700 hover:underline">
              {t("deployments.refresh")}
            </a>
          </div>
          <LiveCounts
            deploymentId={deployment.id}
            counts={counts}
            state={deployment.state}
            phaseIndex={deployment.phaseIndex}
            live={isActive(deployment.state)}
          />
        </section>
        {deployment.kind === "firmware" ? <FirmwareStages stages={data.stages} averageProgress={data.averageProgress} /> : null}
        <section aria-labelledby="radios-heading">
          <h2 id="radios-heading" className="mb-2 text-lg font-semibold">
            {t("deployments.radiosHeading")}
          </h2>
          <form method="get" action={href} className="mb-3 flex items-end gap-2">
            <SelectField
              label={String(t("deployments.radioState"))}
              name="state"
              defaultValue={filter}
              options={shownStates.map((s) => ({ value: s, label: String(t(`deployments.radioStates.${s}`)) }))}
            />
            <Button type="submit" variant="white" size="sm">
              {t("deployments.show")}
            </Button>
          </form>
          <Table
            caption={String(t("deployments.radiosHeading"))}
            rows={radios}
            rowKey={(r) => r.uid}
            empty={
              <p className="text-sm text-slate-700">
                {t(archives.length > 0 ? "deployments.radiosArchived" : "deployments.noRadios")}
              </p>
            }
            columns={[
              { key: "uid", header: "UID", cell: (r) => <span className="font-mono">{r.uid}</span> },
              { key: "name", header: String(t("deployments.radioName")), cell: (r) => r.name },
              { key: "state", header: String(t("deployments.radioState")), cell: (r) => t(`deployments.radioStates.${r.state}`) },
              ...(deployment.kind === "firmware"
                ? [
                    {
                      key: "stage",
                      header: String(t("firmwareDeployment.stage")),
                      cell: (r: DeploymentRadio) =>
                        r.stage
                          ? `${t(`firmwareDeployment.stages.${r.stage}`)}${
                              r.stage === "downloading" && r.progress !== null
                                ? ` (${r.progress.toLocaleString(language)} %)`
                                : ""
                            }`
                          : "",
                    },
                    {
                      key: "from",
                      header: String(t("firmwareDeployment.fromFirmware")),
                      cell: (r: DeploymentRadio) => r.fromFirmware ?? "",
                    },
                  ]
                : []),
              { key: "code", header: String(t("deployments.code")), cell: (r) => [r.code, r.detail].filter(Boolean).join(" — ") },
              {
                key: "at",
                header: String(t("deployments.reportedAt")),
                cell: (r) => (r.updatedAt ? formatDateTime(language, r.updatedAt, account.timezone) : ""),
              },
            ]}
          />
          {nextAfter && (
            <a
              className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline"
              href={`${href}?state=${filter}&after=${encodeURIComponent(nextAfter)}`}
            >
              {t("deployments.moreRadios")}
            </a>
          )}
        </section>
        <ArchiveList accountId={account._id} archives={archives} retentionMonths={account.retentionMonths} />
      </div>
    </AccountLayout>
  );
}

async function act(c: RouteContext): Promise<ActionResult> {
  const accountId = c.req.param("accountId") ?? "";
  const id = c.req.param("deploymentId") ?? "";
  const posted = await postedValues(c);
  const here = deploymentHref(accountId, id);
  const what = posted.do ?? "";
  if (what === "approve" || what === "reject") return decideFromPage(c, id, here, posted);
  try {
    if (what === "retryFailed") {
      const key = posted.idempotencyKey ?? "";
      const created = await api(c).deployments.retryFailed({ id, ...(key ? { idempotencyKey: key } : {}) });
      return {
        ok: true,
        redirect: deploymentHref(accountId, created.id),
        flash: { type: "success", key: "deployments.retried", values: { number: created.number } },
      };
    }
    if (what === "rollback") {
      const key = posted.idempotencyKey ?? "";
      const created = await api(c).deployments.rollback({ id, ...(key ? { idempotencyKey: key } : {}) });
      return {
        ok: true,
        redirect: deploymentHref(accountId, created.id),
        flash: { type: "success", key: "deployments.rolledBack", values: { number: created.number } },
      };
    }
    if (!(actions as string[]).includes(what))
      return { ok: true, redirect: here, flash: { type: "error", key: "validation.Invalid" } };
    const version = Number(posted.version ?? "");
    await api(c).deployments.act({
      id,
      action: what as DeploymentAction,
      ...(Number.isInteger(version) && version > 0 ? { version } : {}),
    });
    return { ok: true, redirect: here, flash: { type: "success", key: `deployments.done.${what}` } };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "CONFLICT" || error.code === "PRECONDITION_FAILED")) {
      return {
        ok: true,
        redirect: here,
        flash: {
          type: "error",
          key:
            error.code === "CONFLICT"
              ? "deployments.conflict"
              : what === "retryFailed"
                ? "errors.nothingToRetry"
                : "errors.nothingToRollBack",
        },
      };
    }
    throw error;
  }
}

/** /accounts/{accountId}/deployments/{deploymentId}: state, plan, live counts, radios per state, and the actions. */
export const deploymentPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const id = c.req.param("deploymentId") ?? "";
    const wanted = c.req.query("state") ?? "";
    const filter: ShownState = (shownStates as readonly string[]).includes(wanted) ? (wanted as ShownState) : "failed";
    const after = (c.req.query("after") ?? "").slice(0, 64);
    const [account, got, radios, progress] = await Promise.all([
      accountDetails(c, accountId),
      api(c).deployments.get({ id }),
      api(c).deployments.radios({ id, state: filter, after, limit: RADIOS_PAGE }),
      api(c).deployments.downloadProgress({ id }),
    ]);
    // A deployment of another account of the same tenant is not this account's page.
    if (got.deployment.accountId !== account._id) throw new TRPCError({ code: "NOT_FOUND", message: "deployment" });
    const user = c.get("user");
    const canAct = Boolean(user?.permissions["create-deployments"]);
    return {
      account,
      deployment: got.deployment,
      counts: got.counts,
      nextNumber: got.nextNumber,
      filter,
      radios: radios.items,
      nextAfter: radios.nextAfter,
      archives: got.archives,
      canAct,
      approval: got.approval,
      canDecide: canAct && got.approval.approval === "pending" && got.approval.authorId !== user?.id,
      targetPlace: got.targetPlace,
      stages: got.stages,
      averageProgress: progress.average,
    };
  },
  Component: DeploymentView,
  action: act,
  toaster: true,
});
