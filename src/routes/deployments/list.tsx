import { actorLabel } from "@/schema/actor-label";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ApprovalState } from "@/server/data/deployment-approval";
import type { Deployment } from "@/server/data/deployments";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { StatusMessage } from "@/ui/status-message";
import { Table } from "@/ui/table";
import { definePage, type PageProps } from "../types";
import { changesHref, deploymentHref, deploymentsHref, firmwareDeploymentHref } from "./paths";
import { AwaitingApprovalBadge, StateBadge } from "./state-badge";

const PAGE = 25;

type Data = {
  account: AccountDetails;
  items: (Deployment & { approval: ApprovalState })[];
  /** The account's deployments waiting for approval (all of them, not only this page's). */
  awaitingApproval: number;
  nextBefore: number | null;
  canDeploy: boolean;
};

function DeploymentsList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, items, nextBefore, canDeploy } = data;
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.deployments"))}
        description={t("deployments.lead")}
        actions={
          canDeploy ? (
            <div className="flex flex-wrap gap-2">
              <ButtonLink href={changesHref(account._id)} variant="white" size="sm">
                {t("deployments.reviewChanges")}
              </ButtonLink>
              <ButtonLink href={firmwareDeploymentHref(account._id)} variant="white" size="sm">
                {t("firmwareDeployment.new")}
              </ButtonLink>
            </div>
          ) : undefined
        }
      />
      {data.awaitingApproval > 0 && (
        <StatusMessage tone="info">{t("deployments.approval.listCount", { count: data.awaitingApproval })}</StatusMessage>
      )}
      <Table
        caption={String(t("routes.deployments"))}
        rows={items}
        rowKey={(d) => d.id}
        empty={<EmptyState title={String(t("deployments.emptyTitle"))} description={String(t("deployments.empty"))} />}
        columns={[
          {
            key: "number",
            header: String(t("deployments.columns.number")),
            cell: (d) => (
              <a className="font-medium text-brand-700 hover:underline" href={deploymentHref(account._id, d.id)}>
                {t("deployments.numbered", { number: d.number })}
              </a>
            ),
          },
          {
            key: "state",
            header: String(t("deployments.columns.state")),
            cell: (d) => (d.approval === "pending" ? <AwaitingApprovalBadge /> : <StateBadge state={d.state} />),
          },
          {
            key: "revision",
            header: String(t("deployments.columns.what")),
            // A firmware deployment installs a package; a configuration one gives a revision.
            cell: (d) =>
              d.kind === "firmware" && d.package
                ? t("deployments.firmwareVersion", { version: d.package.version })
                : t("deployments.revision", { number: d.revisionNumber }),
          },
          {
            key: "phase",
            header: String(t("deployments.columns.phase")),
            cell: (d) => t("deployments.phaseOf", { phase: d.phaseIndex + 1, phases: d.plan.phases.length }),
          },
          {
            key: "created",
            header: String(t("deployments.columns.created")),
            cell: (d) => formatDateTime(language, d.createdAt, account.timezone),
          },
          {
            key: "by",
            header: String(t("deployments.columns.by")),
            cell: (d) => actorLabel(d.createdBy, (key, values) => String(t(key, values))),
          },
          { key: "note", header: String(t("deployments.columns.note")), cell: (d) => d.note },
        ]}
      />
      {nextBefore !== null && (
        <a
          className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline"
          href={`${deploymentsHref(account._id)}?before=${nextBefore}`}
        >
          {t("deployments.older")}
        </a>
      )}
    </AccountLayout>
  );
}

/** /accounts/{accountId}/deployments: the account's deployments, newest first (keyset pages). */
export const deploymentsListPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const before = Number(c.req.query("before") ?? "");
    const [account, page] = await Promise.all([
      accountDetails(c, accountId),
      api(c).deployments.list({ accountId, limit: PAGE, ...(Number.isInteger(before) && before > 0 ? { before } : {}) }),
    ]);
    return {
      account,
      items: page.items,
      awaitingApproval: page.awaitingApproval,
      nextBefore: page.nextBefore,
      canDeploy: Boolean(c.get("user")?.permissions["create-deployments"]),
    };
  },
  Component: DeploymentsList,
});
