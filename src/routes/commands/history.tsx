import { actorLabel } from "@/schema/actor-label";
import { type CommandParams, type CommandType, paramsSummary } from "@/schema/fleet/commands";
import { formatDateTime } from "@/schema/format";
import type { Command } from "@/server/data/commands";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { Table } from "@/ui/table";
import { definePage, type PageProps } from "../types";
import { CommandsFrame } from "./frame";
import { commandHref, historyHref, sendHref, testHref } from "./paths";
import { historyOf, type PageScope, pageScope, uidParam } from "./scope";
import { CommandStateBadge } from "./state-badge";

const PAGE = 25;

type Data = {
  scope: PageScope;
  uid: string;
  name: string;
  items: Command[];
  next: { createdAt: string; id: string } | null;
  waiting: number;
  canSend: boolean;
};

/** The newest step a command took, and when. */
function lastStep(command: Command): string {
  return command.endedAt ?? command.deliveredAt ?? command.sentAt ?? command.createdAt;
}

function History({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { scope, uid, items, next, waiting, canSend } = data;
  const when = (value: string) => formatDateTime(language, value, scope.timeZone);
  const actions = (
    <>
      {canSend && <ButtonLink href={sendHref(scope, uid)}>{t("commands.sendLink")}</ButtonLink>}
      {canSend && (
        <ButtonLink href={testHref(scope, uid)} variant="white">
          {t("commands.testLink")}
        </ButtonLink>
      )}
    </>
  );
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("routes.deviceCommands"))}
        description={t("commands.historyLead", { uid: data.name ? `${data.name} (${uid})` : uid, waiting })}
        actions={actions}
      />
      <Table
        caption={String(t("routes.deviceCommands"))}
        rows={items}
        rowKey={(c) => c.id}
        empty={<EmptyState title={String(t("commands.empty"))} description={String(t("commands.emptyHelp"))} />}
        columns={[
          {
            key: "type",
            header: String(t("commands.columns.type")),
            cell: (c) => (
              <a href={commandHref(scope, uid, c.id)} className="font-medium text-brand-700 hover:underline">
                {t(`commands.types.${c.type}`)}
              </a>
            ),
          },
          {
            key: "details",
            header: String(t("commands.columns.details")),
            cell: (c) => paramsSummary(c.type as CommandType, c.params as CommandParams),
          },
          { key: "state", header: String(t("commands.columns.state")), cell: (c) => <CommandStateBadge state={c.state} /> },
          { key: "queued", header: String(t("commands.columns.queued")), cell: (c) => when(c.createdAt) },
          { key: "last", header: String(t("commands.columns.lastStep")), cell: (c) => when(lastStep(c)) },
          {
            key: "by",
            header: String(t("commands.columns.by")),
            cell: (c) => actorLabel(c.createdByEmail, (key, values) => String(t(key, values))),
          },
        ]}
      />
      {next && (
        <a
          className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline"
          href={historyHref(scope, uid, `?after=${encodeURIComponent(`${next.createdAt}|${next.id}`)}`)}
        >
          {t("commands.more")}
        </a>
      )}
    </CommandsFrame>
  );
}

/** {uid}/commands: a radio's commands with their states and times, newest first. */
export const commandHistoryPage = definePage<Data>({
  load: async (c) => {
    const scope = await pageScope(c);
    const uid = uidParam(c);
    const [createdAt, id] = (c.req.query("after") ?? "").split("|");
    const after = createdAt && id ? { createdAt: createdAt.slice(0, 40), id: id.slice(0, 64) } : undefined;
    const page = await historyOf(c, scope, uid, PAGE, after);
    return {
      scope,
      uid: page.device.uid,
      name: page.device.name,
      items: page.items,
      next: page.next,
      waiting: page.waiting,
      canSend: Boolean(c.get("user")?.permissions["manage-devices"]) && page.device.status === "active",
    };
  },
  Component: History,
});
