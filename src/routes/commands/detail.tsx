import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { actorLabel } from "@/schema/actor-label";
import { type CommandParams, type CommandType, cancellableStates, paramsSummary } from "@/schema/fleet/commands";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { Command } from "@/server/data/commands";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { LivePart } from "@/ui/live-part";
import { PageHeader } from "@/ui/page-header";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { CommandsFrame } from "./frame";
import { liveCommand } from "./live-command";
import { commandHref, historyHref } from "./paths";
import { type PageScope, pageScope, uidParam } from "./scope";
import { CommandStateBadge } from "./state-badge";

type Data = { scope: PageScope; uid: string; command: Command; canCancel: boolean };

function Detail({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { scope, uid, command, canCancel } = data;
  const when = (value: string) => formatDateTime(language, value, scope.timeZone);
  const summary = paramsSummary(command.type as CommandType, command.params as CommandParams);
  const row = (label: string, value: React.ReactNode) => (
    <div className="flex flex-wrap gap-x-2 py-1">
      <dt className="font-medium text-slate-700">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </div>
  );
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("commands.detail.title", { type: t(`commands.types.${command.type}`), uid }))}
        description={
          <LivePart name="command-state">
            <CommandStateBadge state={command.state} />
          </LivePart>
        }
        actions={
          <ButtonLink href={historyHref(scope, uid)} variant="white" size="sm">
            {t("commands.detail.back")}
          </ButtonLink>
        }
      />
      <div className="space-y-6">
        <dl className="grid gap-x-8 text-sm sm:grid-cols-2">
          {summary && row(String(t("commands.columns.details")), summary)}
          {row(
            String(t("commands.detail.by")),
            actorLabel(command.createdByEmail, (key, values) => String(t(key, values))),
          )}
          {row(String(t("commands.detail.expires")), when(command.expiresAt))}
          {command.cancelledByEmail && row(String(t("commands.detail.cancelledBy")), command.cancelledByEmail)}
          {row(String(t("commands.detail.id")), <span className="font-mono text-xs">{command.id}</span>)}
        </dl>
        <section aria-labelledby="steps-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="mb-2 flex items-center justify-between">
            <h2 id="steps-heading" className="text-lg font-semibold">
              {t("commands.detail.steps")}
            </h2>
            <a href={commandHref(scope, uid, command.id)} className="text-sm font-medium text-brand-700 hover:underline">
              {t("commands.detail.refresh")}
            </a>
          </div>
          <Island
            name="command-live"
            props={{
              language,
              timeZone: scope.timeZone,
              uid,
              ...(scope.accountId ? { accountId: scope.accountId } : {}),
              command: liveCommand(command),
            }}
          />
        </section>
        <LivePart name="command-cancel" block>
          {canCancel && (cancellableStates as readonly string[]).includes(command.state) && (
            <section aria-labelledby="cancel-heading">
              <h2 id="cancel-heading" className="mb-1 text-lg font-semibold">
                {t("commands.detail.cancelHeading")}
              </h2>
              <p className="mb-2 text-sm text-slate-700">{t("commands.detail.cancelHelp")}</p>
              <Island
                name="confirm-form"
                props={{
                  action: commandHref(scope, uid, command.id),
                  label: String(t("commands.detail.cancel")),
                  hidden: { do: "cancel" },
                }}
              />
            </section>
          )}
        </LivePart>
      </div>
    </CommandsFrame>
  );
}

async function cancel(c: RouteContext): Promise<ActionResult> {
  const scope = await pageScope(c);
  const uid = uidParam(c);
  const id = (c.req.param("commandId") ?? "").slice(0, 64);
  const here = commandHref(scope, uid, id);
  try {
    await api(c).commands.cancel({ uid, id, ...(scope.accountId ? { accountId: scope.accountId } : {}) });
    return { ok: true, redirect: here, flash: { type: "success", key: "commands.cancelled" } };
  } catch (error) {
    if (error instanceof TRPCError && error.code === "CONFLICT") {
      return { ok: true, redirect: here, flash: { type: "error", key: "commands.errors.notCancellable" } };
    }
    throw error;
  }
}

/** {uid}/commands/{commandId}: one command, every step with its time, updating live; cancel while not delivered. */
export const commandDetailPage = definePage<Data>({
  load: async (c) => {
    const scope = await pageScope(c);
    const uid = uidParam(c);
    const id = (c.req.param("commandId") ?? "").slice(0, 64);
    const got = await api(c).commands.get({ uid, id, ...(scope.accountId ? { accountId: scope.accountId } : {}) });
    return { scope, uid: got.device.uid, command: got.command, canCancel: Boolean(c.get("user")?.permissions["manage-devices"]) };
  },
  Component: Detail,
  action: cancel,
  toaster: true,
});
