import type { ReactNode } from "react";
import { formatDateTime, pageTimeZone } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import type { Device } from "@/server/data/devices";
import type { DesiredFirmware } from "@/server/devices/desired-firmware";
import type { RadioSync } from "@/server/fleet/radio-sync";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { DeviceCommandLinks } from "../commands/device-links";
import { deploymentHref } from "../deployments/paths";
import { fcDeviceSettingsHref } from "../fc-cases/paths";
import { definePage, type PageProps, type RouteContext } from "../types";
import { type FirmwareHistoryPage, FirmwareSection } from "./firmware-section";
import { DeviceFrame } from "./frame";
import { LastSeen, placeOf } from "./list";
import { assignmentHref, deviceHref, devicesHref, type Frame } from "./paths";

type Effective = Awaited<ReturnType<ReturnType<typeof api>["devices"]["effectiveConfiguration"]>>;

type History = Awaited<ReturnType<ReturnType<typeof api>["devices"]["deployments"]>>;

type Data = {
  frame: Frame;
  account: AccountDetails | null;
  device: Device;
  activity: ActivityEntry[];
  effective: Effective;
  revision: RadioSync | null;
  history: History;
  /** The page of the history shown starts below this deployment number (null: the newest). */
  historyBefore: number | null;
  firmwareHistory: FirmwareHistoryPage;
  desiredFirmware: DesiredFirmware | null;
  /** The page of the firmware history shown starts below this time (null: the newest). */
  firmwareBefore: string | null;
};

function Facts({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 text-base font-semibold text-slate-900">{title}</h2>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The desired vs reported revision and both states (DESIGN §7): the desired side is what the
 * device protocol hands the radio now (devices.revision, the check-in's own code), the states
 * schema/fleet/sync-state.ts, in the words every count uses. A radio in no account has nothing desired.
 */
export function DesiredRevisionSlot({ device, revision }: { device: Device; revision: RadioSync | null }) {
  const { t } = usePage();
  const reported = revision?.reported;
  return (
    <div data-slot="desired-revision" data-drift={revision?.sync ?? "none"} data-contact={revision?.contact ?? "none"}>
      <span>
        {revision?.desired
          ? t("devices.view.desiredRevision", { number: revision.desired.number })
          : t("devices.view.desiredNone")}
      </span>
      <span className="mx-1">·</span>
      <span>
        {t("devices.view.reported")}:{" "}
        {reported
          ? reported.number !== null
            ? t("devices.view.reportedRevision", { number: reported.number })
            : t("devices.view.unknownRevision")
          : (device.reportedRevision ?? t("devices.view.noneReported"))}
      </span>
      {revision ? (
        <>
          <span className="block">
            {t("devices.view.driftState")}: <strong>{t(`fleetStates.sync.${revision.sync}`)}</strong>
          </span>
          <span className="block">
            {t("devices.view.contactState")}: <strong>{t(`fleetStates.contact.${revision.contact}`)}</strong>
          </span>
        </>
      ) : null}
    </div>
  );
}

/** The deployments the radio went through, newest first, with what it reported on each; paged by deployment number. */
function DeploymentHistory({ data }: { data: Data }) {
  const { t, language } = usePage();
  const { history, device, frame, account } = data;
  const accountId = device.accountId;
  const timeZone = pageTimeZone(account);
  const here = deviceHref(frame, "view", device.uid);
  return (
    <section className="mt-6" aria-labelledby="radio-deployments">
      <h2 id="radio-deployments" className="mb-2 text-lg font-semibold text-slate-900">
        {t("devices.view.deployments")}
      </h2>
      {history.items.length === 0 || !accountId ? (
        <p className="text-sm text-slate-600">{t("devices.view.deploymentsNone")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-slot="radio-deployments">
            <caption className="sr-only">{t("devices.view.deployments")}</caption>
            <thead className="bg-slate-50">
              <tr>
                {[
                  t("deployments.columns.number"),
                  t("deployments.columns.what"),
                  t("deployments.columns.state"),
                  t("deployments.radioState"),
                  t("deployments.code"),
                  t("deployments.reportedAt"),
                ].map((label) => (
                  <th key={String(label)} scope="col" className="px-4 py-3 text-left font-semibold text-slate-700">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.items.map((entry) => (
                <tr key={entry.deploymentId} data-report={entry.state}>
                  <td className="px-4 py-2">
                    <a
                      href={deploymentHref(accountId, entry.deploymentId)}
                      className="font-medium text-brand-700 hover:underline"
                    >
                      {t("deployments.numbered", { number: entry.number })}
                    </a>
                  </td>
                  <td className="px-4 py-2">
                    {entry.kind === "firmware" && entry.packageVersion !== null
                      ? t("deployments.firmwareVersion", { version: entry.packageVersion })
                      : t("deployments.revision", { number: entry.revisionNumber })}
                  </td>
                  <td className="px-4 py-2">{t(`deployments.states.${entry.deploymentState}`)}</td>
                  <td className="px-4 py-2">
                    {`${t(`deployments.radioStates.${entry.state}`)}${
                      entry.stage ? ` · ${t(`firmwareDeployment.stages.${entry.stage}`)}` : ""
                    }`}
                  </td>
                  <td className="px-4 py-2">{[entry.code, entry.detail].filter(Boolean).join(" — ") || "—"}</td>
                  <td className="px-4 py-2">
                    <time dateTime={entry.reportedAt}>{formatDateTime(language, entry.reportedAt, timeZone)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label={String(t("devices.view.deployments"))} className="mt-2 flex gap-3 text-sm">
        {data.historyBefore ? (
          <a href={here} className="font-medium text-brand-700 hover:underline">
            {t("devices.view.deploymentsNewest")}
          </a>
        ) : null}
        {history.next ? (
          <a href={`${here}?before=${history.next}`} rel="next" className="font-medium text-brand-700 hover:underline">
            {t("devices.view.deploymentsOlder")}
          </a>
        ) : null}
      </nav>
    </section>
  );
}

function EffectiveConfiguration({ effective }: { effective: Effective }) {
  const { t } = usePage();
  if (!effective.assigned) return <p className="text-sm text-slate-600">{t("devices.view.effectiveUnassigned")}</p>;
  const levelName = (level: string) => String(t(`devices.view.levels.${level}`));
  return (
    <div className="flex flex-col gap-4">
      {effective.network ? (
        <div>
          <h3 className="text-sm font-semibold text-slate-800">{t("devices.view.network")}</h3>
          {Object.keys(effective.network.sources).length === 0 ? (
            <p className="text-sm text-slate-600">{t("devices.view.networkNone")}</p>
          ) : (
            <ul className="mt-1 list-disc pl-5 text-sm">
              {Object.entries(effective.network.sources).map(([part, source]) => (
                <li key={part}>
                  {t(`devices.view.parts.${part}`)}:{" "}
                  {t("devices.view.from", { level: levelName(source.level), name: source.name ?? "" })}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <div>
        <h3 className="text-sm font-semibold text-slate-800">{t("devices.view.profiles")}</h3>
        {effective.profiles.length === 0 ? (
          <p className="text-sm text-slate-600">{t("devices.view.profilesNone")}</p>
        ) : (
          <ol className="mt-1 list-decimal pl-5 text-sm">
            {effective.profiles.map((entry) => (
              <li key={`${entry.rule.id}-${entry.profile.id}`}>
                {entry.profile.name} ({t(`profiles.types.${entry.profile.type}`)}) —{" "}
                {t("devices.view.byRule", { rule: entry.rule.name, priority: entry.rule.priority })}
                {entry.overriddenBy ? ` · ${t("devices.view.overridden")}` : ""}
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

function ViewDevice({ data }: PageProps<Data>) {
  const { t, user, language } = usePage();
  const { frame, account, device, activity, effective, revision } = data;
  const canManage = user?.permissions["manage-devices"] === true;
  const timeZone = pageTimeZone(account);
  const text = (key: string) => String(t(key));
  const none = text("devices.fields.unassigned");
  return (
    <DeviceFrame
      account={account}
      title={device.name ? `${device.name} (${device.uid})` : device.uid}
      description={
        <a href={devicesHref(frame)} className="font-medium text-brand-700 hover:underline">
          {t(account ? "devices.registry.title" : "routes.devices")}
        </a>
      }
      actions={
        canManage && device.status === "active" ? (
          <div className="flex flex-wrap gap-2">
            <ButtonLink href={deviceHref(frame, "edit", device.uid)}>{t("devices.view.edit")}</ButtonLink>
            <ButtonLink href={assignmentHref(device.uid, true)} variant="white">
              {t("devices.view.assign")}
            </ButtonLink>
            <ButtonLink href={deviceHref(frame, "redirect", device.uid)} variant="white">
              {t("devices.view.handOver")}
            </ButtonLink>
          </div>
        ) : undefined
      }
    >
      <div className="grid gap-4 lg:grid-cols-2">
        <Facts
          title={text("devices.view.identity")}
          rows={[
            [
              text("devices.fields.uid"),
              <span key="uid" className="font-mono">
                {device.uid}
              </span>,
            ],
            [text("devices.fields.brand"), device.brand],
            [text("devices.fields.model"), device.model],
            [text("devices.fields.name"), device.name || "—"],
            [text("devices.fields.tags"), device.tags.join(", ") || "—"],
            [text("devices.filters.status"), text(`devices.status.${device.status}`)],
            [text("devices.fields.notes"), device.notes || "—"],
          ]}
        />
        <Facts
          title={text("devices.view.assignment")}
          rows={[
            [text("devices.fields.place"), placeOf(device, none)],
            [text("devices.view.registered"), formatDateTime(language, device.createdAt, timeZone)],
          ]}
        />
        <Facts
          title={text("devices.view.state")}
          rows={[
            [text("devices.fields.firmware"), device.firmware || "—"],
            [text("devices.fields.battery"), device.battery === null ? "—" : `${device.battery}%`],
            [text("devices.fields.signal"), device.signal === null ? "—" : `${device.signal} dBm`],
            [
              text("devices.fields.lastSeen"),
              <span key="seen">
                <LastSeen value={device.lastSeenAt} timeZone={timeZone} />
                <span className="block text-xs text-slate-600">{text("devices.fields.lastSeenResolution")}</span>
              </span>,
            ],
            [text("devices.view.revision"), <DesiredRevisionSlot key="revision" device={device} revision={revision} />],
          ]}
        />
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 className="mb-2 text-base font-semibold text-slate-900">{t("devices.view.effective")}</h2>
          <EffectiveConfiguration effective={effective} />
        </section>
      </div>
      <DeviceCommandLinks accountId={frame.accountId} uid={device.uid} canSend={canManage && device.status === "active"} />
      {canManage ? (
        <p className="mt-4">
          <a href={fcDeviceSettingsHref(device.uid, frame.accountId)} className="font-medium text-brand-700 hover:underline">
            {t("fc.device.link")}
          </a>
        </p>
      ) : null}
      <FirmwareSection
        firmware={device.firmware}
        desired={data.desiredFirmware}
        accountId={device.accountId}
        history={data.firmwareHistory}
        pagedFrom={data.firmwareBefore}
        here={deviceHref(frame, "view", device.uid)}
        timeZone={timeZone}
      />
      <DeploymentHistory data={data} />
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("devices.view.activity")}</h2>
        {activity.length === 0 ? (
          <p className="text-sm text-slate-600">{t("devices.view.noActivity")}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
            {activity.map((entry) => (
              <li key={entry.id} className="px-4 py-2">
                <time dateTime={entry.createdAt}>{formatDateTime(language, entry.createdAt, timeZone)}</time> · {entry.actorEmail}{" "}
                ·{" "}
                {Object.keys(entry.diff)
                  .map((field) => t(`devices.view.changed.${field}`, { defaultValue: field }))
                  .join(", ") || t(`activityLogs.actions.${entry.action}`)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </DeviceFrame>
  );
}

async function loadView(c: RouteContext, frame: Frame): Promise<Data> {
  const uid = c.req.param("uid") ?? "";
  const caller = api(c);
  const scope = frame.accountId ? { accountId: frame.accountId } : {};
  // ?before= pages the deployment history (a deployment number); anything else is the newest page.
  const before = Number(c.req.query("before"));
  const historyBefore = Number.isInteger(before) && before >= 1 && before <= 1_000_000_000 ? before : null;
  // ?firmwareBefore= pages the firmware history (a time); anything unreadable is the newest page.
  const firmwareFrom = c.req.query("firmwareBefore") ?? "";
  const firmwareBefore = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(firmwareFrom) ? firmwareFrom : null;
  const [account, details, effective, revision, history, firmwareHistory, desired] = await Promise.all([
    frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
    caller.devices.details({ uid, ...scope }),
    caller.devices.effectiveConfiguration({ uid, ...scope }),
    caller.devices.revision({ uid, ...scope }),
    caller.devices.deployments({ uid, ...scope, ...(historyBefore ? { before: historyBefore } : {}) }),
    caller.devices.firmwareHistory({ uid, ...scope, ...(firmwareBefore ? { before: firmwareBefore } : {}) }),
    caller.devices.desiredFirmware({ uid, ...scope }),
  ]);
  return {
    frame,
    account,
    device: details.device,
    activity: details.activity,
    effective,
    revision,
    history,
    historyBefore,
    firmwareHistory,
    firmwareBefore,
    desiredFirmware: desired.desired,
  };
}

/** /devices/view/{uid}: everything about one radio. */
export const viewDevicePage = definePage<Data>({ load: (c) => loadView(c, { accountId: null }), Component: ViewDevice });

/** /accounts/{id}/registry/devices/view/{uid}: the same in the account's frame. */
export const registryViewDevicePage = definePage<Data>({
  load: (c) => loadView(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: ViewDevice,
});
