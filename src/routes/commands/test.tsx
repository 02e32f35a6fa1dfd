import { TRPCError } from "@trpc/server";
import { Island } from "@/islands/runtime/island";
import { commandLimits } from "@/schema/fleet/commands";
import { api } from "@/server/api/procedures-route";
import type { Command } from "@/server/data/commands";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { CommandsFrame } from "./frame";
import { liveCommand } from "./live-command";
import { historyHref, testHref } from "./paths";
import { historyOf, type PageScope, pageScope, uidParam } from "./scope";

/** A connectivity test's ping waits at most an hour for the radio. */
const TEST_EXPIRY_HOURS = 1;

type Data = { scope: PageScope; uid: string; name: string; command: Command | null };

function ConnectivityTest({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { scope, uid, command } = data;
  const here = testHref(scope, uid);
  return (
    <CommandsFrame scope={scope}>
      <PageHeader
        title={String(t("routes.deviceTest"))}
        description={t("commands.test.lead", { uid: data.name ? `${data.name} (${uid})` : uid })}
        actions={
          <ButtonLink href={historyHref(scope, uid)} variant="white" size="sm">
            {t("commands.detail.back")}
          </ButtonLink>
        }
      />
      <div className="space-y-6">
        <form method="post" action={here}>
          <Button type="submit" variant={command ? "white" : "primary"}>
            {t(command ? "commands.test.again" : "commands.test.start")}
          </Button>
        </form>
        {command && (
          <section aria-labelledby="test-heading" className="rounded-lg border border-slate-200 bg-white p-4">
            <div className="mb-2 flex items-center justify-between">
              <h2 id="test-heading" className="text-lg font-semibold">
                {t("commands.test.heading")}
              </h2>
              <a
                href={testHref(scope, uid, `?command=${encodeURIComponent(command.id)}`)}
                className="text-sm font-medium text-brand-700 hover:underline"
              >
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
                roundTrip: true,
              }}
            />
            <p className="mt-3 text-sm text-slate-600">{t("commands.test.howItWorks")}</p>
          </section>
        )}
      </div>
    </CommandsFrame>
  );
}

async function start(c: RouteContext): Promise<ActionResult> {
  const scope = await pageScope(c);
  const uid = uidParam(c);
  try {
    const sent = await api(c).commands.send({
      uid,
      ...(scope.accountId ? { accountId: scope.accountId } : {}),
      type: "ping",
      expiryHours: TEST_EXPIRY_HOURS,
    });
    return { ok: true, redirect: testHref(scope, uid, `?command=${encodeURIComponent(sent.id)}`) };
  } catch (error) {
    // A full queue or a retired radio: said on the page, not as an error screen.
    if (error instanceof TRPCError && error.code === "PRECONDITION_FAILED") {
      return {
        ok: true,
        redirect: testHref(scope, uid),
        flash: { type: "error", key: "commands.errors.queueFull", values: { limit: commandLimits.queue } },
      };
    }
    throw error;
  }
}

/** devices/test/{uid}: a connectivity test that pings the radio and shows each step and the round trip as it happens. */
export const connectivityTestPage = definePage<Data>({
  load: async (c) => {
    const scope = await pageScope(c);
    const uid = uidParam(c);
    const page = await historyOf(c, scope, uid, 1);
    const id = (c.req.query("command") ?? "").slice(0, 64);
    const command = id
      ? (await api(c).commands.get({ uid, id, ...(scope.accountId ? { accountId: scope.accountId } : {}) })).command
      : null;
    return { scope, uid: page.device.uid, name: page.device.name, command: command?.type === "ping" ? command : null };
  },
  Component: ConnectivityTest,
  action: start,
  toaster: true,
});
