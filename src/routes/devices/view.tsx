import type { ReactNode } from "react";
import { formatDateTime } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import type { Device } from "@/server/data/devices";
import type { RadioDrift } from "@/server/fleet/radio-drift";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { DeviceCommandLinks } from "../commands/device-links";
import { fcDeviceSettingsHref } from "../fc-cases/paths";
import { definePage, type PageProps, type RouteContext } from "../types";
import { DeviceFrame } from "./frame";
import { LastSeen, placeOf } from "./list";
import { assignmentHref, deviceHref, devicesHref, type Frame } from "./paths";

type Effective = Awaited<ReturnType<ReturnType<typeof api>["devices"]["effectiveConfiguration"]>>;

type Data = {
  frame: Frame;
  account: AccountDetails | null;
  device: Device;
  activity: ActivityEntry[];
  effective: Effective;
  revision: RadioDrift | null;
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

/** deploy's drift states, labelled with the account home's words (accountHome.drift.*). */
export const driftLabelKey = {
  "in-sync": "accountHome.drift.inSync",
  pending: "accountHome.drift.pending",
  failed: "accountHome.drift.failed",
  drifted: "accountHome.drift.drifted",
  overdue: "accountHome.drift.overdue",
  "never-deployed": "accountHome.drift.neverDeployed",
} as const;

/**
 * The desired vs reported revision (DESIGN §7 drift): the desired side is what the device
 * protocol hands the radio now (devices.revision, the check-in's own code), the state deploy's
 * driftOf. A radio in no account has nothing desired.
 */
export function DesiredRevisionSlot({ device, revision }: { device: Device; revision: RadioDrift | null }) {
  const { t } = usePage();
  const reported = revision?.reported;
  return (
    <div data-slot="desired-revision" data-drift={revision?.state ?? "none"}>
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
          <span className="mx-1">·</span>
          <span>
            {t("devices.view.driftState")}: <strong>{t(driftLabelKey[revision.state])}</strong>
          </span>
        </>
      ) : null}
    </div>
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
          <div className="flex gap-2">
            <ButtonLink href={deviceHref(frame, "edit", device.uid)}>{t("devices.view.edit")}</ButtonLink>
            <ButtonLink href={assignmentHref(device.uid, true)} variant="white">
              {t("devices.view.assign")}
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
            [text("devices.view.registered"), formatDateTime(language, device.createdAt)],
          ]}
        />
        <Facts
          title={text("devices.view.state")}
          rows={[
            [text("devices.fields.firmware"), device.firmware || "—"],
            [text("devices.fields.battery"), device.battery === null ? "—" : `${device.battery}%`],
            [text("devices.fields.signal"), device.signal === null ? "—" : `${device.signal} dBm`],
            [text("devices.fields.lastSeen"), <LastSeen key="seen" value={device.lastSeenAt} />],
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
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("devices.view.activity")}</h2>
        {activity.length === 0 ? (
          <p className="text-sm text-slate-600">{t("devices.view.noActivity")}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
            {activity.map((entry) => (
              <li key={entry.id} className="px-4 py-2">
                <time dateTime={entry.createdAt}>{formatDateTime(language, entry.createdAt)}</time> · {entry.actorEmail} ·{" "}
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
  const [account, details, effective, revision] = await Promise.all([
    frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
    caller.devices.details({ uid, ...scope }),
    caller.devices.effectiveConfiguration({ uid, ...scope }),
    caller.devices.revision({ uid, ...scope }),
  ]);
  return { frame, account, device: details.device, activity: details.activity, effective, revision };
}

/** /devices/view/{uid}: everything about one radio. */
export const viewDevicePage = definePage<Data>({ load: (c) => loadView(c, { accountId: null }), Component: ViewDevice });

/** /accounts/{id}/registry/devices/view/{uid}: the same in the account's frame. */
export const registryViewDevicePage = definePage<Data>({
  load: (c) => loadView(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: ViewDevice,
});
