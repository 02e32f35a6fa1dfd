import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { historyHref, sendHref, testHref } from "./paths";

/** The way from a radio's page to its commands (history for viewers; send and test for managers). */
export function DeviceCommandLinks({ accountId, uid, canSend }: { accountId: string | null; uid: string; canSend: boolean }) {
  const { t } = usePage();
  const scope = accountId ? { accountId } : {};
  return (
    <section className="mt-6 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="device-commands-heading">
      <h2 id="device-commands-heading" className="mb-1 text-base font-semibold text-slate-900">
        {t("routes.deviceCommands")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t("commands.deviceLead")}</p>
      <div className="flex flex-wrap gap-2">
        <ButtonLink href={historyHref(scope, uid)} variant="white" size="sm">
          {t("commands.historyLink")}
        </ButtonLink>
        {canSend && (
          <ButtonLink href={sendHref(scope, uid)} size="sm">
            {t("commands.sendLink")}
          </ButtonLink>
        )}
        {canSend && (
          <ButtonLink href={testHref(scope, uid)} variant="white" size="sm">
            {t("commands.testLink")}
          </ButtonLink>
        )}
      </div>
    </section>
  );
}
