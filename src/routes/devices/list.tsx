import { TRPCError } from "@trpc/server";
import { contactStates, type SyncCounts, syncStates } from "@/schema/fleet/sync-state";
import { formatDateTime, pageTimeZone } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { FirmwareDrift } from "@/server/data/firmware-drift";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink, buttonClass } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SelectField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import { bulkHref } from "../commands/paths";
import { firmwareHref } from "../firmware/paths";
import { groupsHref } from "../radio-groups/paths";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { DriftCountsStrip } from "./drift-counts";
import { DeviceFrame } from "./frame";
import { type DevicesQuery, filterFieldNames, filterOf, parseDevicesQuery, queryString } from "./list-query";
import { addDeviceHref, assignmentHref, deviceHref, devicesHref, exportHref, type Frame, importHref } from "./paths";

export const DEVICES_PAGE_SIZE = 50;

type Options = Awaited<ReturnType<ReturnType<typeof api>["devices"]["filterOptions"]>>;
type Page = Awaited<ReturnType<ReturnType<typeof api>["devices"]["list"]>>;
type Listed = Page["items"][number];

type Data = {
  frame: Frame;
  account: AccountDetails | null;
  query: DevicesQuery;
  items: Listed[];
  next: string | null;
  /** The list is one account's: its radios' sync states are known (and filterable). */
  statesKnown: boolean;
  options: Options;
  /** The account's radios by drift state (the registry only). */
  drift: SyncCounts | null;
  /** Desired vs running firmware of the account's newest firmware deployment (the registry only). */
  firmwareDrift: FirmwareDrift | null;
};

/** When the radio last checked in, or that it never has. */
export function LastSeen({ value, timeZone }: { value: string | null; timeZone: string }) {
  const { t, language } = usePage();
  if (!value) return <span className="text-slate-500">{t("devices.fields.neverSeen")}</span>;
  return <time dateTime={value}>{formatDateTime(language, value, timeZone)}</time>;
}

export function placeOf(device: Pick<Listed, "accountName" | "siteName" | "locationName">, none: string): string {
  if (!device.accountName) return none;
  return [device.accountName, device.siteName, device.locationName].filter(Boolean).join(" › ");
}

/** Desired vs reported revision of a listed radio (desired only where its account's deployments are known). */
function Revisions({ device }: { device: Listed }) {
  const { t } = usePage();
  const { desired, reported } = device.revisions;
  const reportedText =
    reported !== null
      ? String(reported)
      : device.reportedRevision
        ? t("devices.list.revisionUnknown")
        : t("devices.list.revisionNone");
  return (
    <>
      {device.sync !== null ? (
        <span className="block">{t("devices.list.desired", { revision: desired ?? t("devices.list.revisionNone") })}</span>
      ) : null}
      <span className="block text-slate-600">{t("devices.list.reported", { revision: reportedText })}</span>
    </>
  );
}

function Filters({ data }: { data: Data }) {
  const { t } = usePage();
  const { query, options, frame } = data;
  const text = (key: string) => String(t(key));
  const any = { value: "", label: text("devices.filters.any") };
  return (
    <form
      method="get"
      action={devicesHref(frame)}
      className="mb-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-4"
    >
      <div className="flex flex-col gap-1 sm:col-span-3 lg:col-span-4">
        <label htmlFor="devices-q" className="text-sm font-medium text-slate-800">
          {t("devices.filters.search")}
        </label>
        <input
          id="devices-q"
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={120}
          aria-describedby="devices-q-hint"
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm sm:text-sm"
        />
        <p id="devices-q-hint" className="text-sm text-slate-600">
          {t("devices.filters.searchHint")}
        </p>
      </div>
      {frame.accountId ? (
        <SelectField
          label={text("devices.fields.site")}
          name="site"
          defaultValue={query.site}
          options={[any, ...options.sites.map((s) => ({ value: s.id, label: s.name }))]}
        />
      ) : (
        <SelectField
          label={text("devices.fields.account")}
          name="account"
          defaultValue={query.account}
          options={[
            any,
            { value: "none", label: text("devices.filters.unassigned") },
            ...options.accounts.map((a) => ({ value: a.id, label: a.name })),
          ]}
        />
      )}
      <SelectField
        label={text("devices.fields.model")}
        name="model"
        defaultValue={query.model}
        options={[any, ...options.models.map((m) => ({ value: m, label: m }))]}
      />
      <SelectField
        label={text("devices.fields.firmware")}
        name="firmware"
        defaultValue={query.firmware}
        options={[any, ...options.firmware.map((f) => ({ value: f, label: f }))]}
      />
      {frame.accountId ? null : (
        <SelectField
          label={text("devices.filters.assignment")}
          name="assignment"
          defaultValue={query.assignment}
          options={[
            any,
            { value: "assigned", label: text("devices.filters.assigned") },
            { value: "unassigned", label: text("devices.filters.unassigned") },
          ]}
        />
      )}
      <SelectField
        label={text("devices.fields.lastSeen")}
        name="seen"
        defaultValue={query.seen}
        options={[
          any,
          { value: "never", label: text("devices.filters.seen.never") },
          { value: "day", label: text("devices.filters.seen.day") },
          { value: "week", label: text("devices.filters.seen.week") },
          { value: "older", label: text("devices.filters.seen.older") },
        ]}
      />
      {data.statesKnown ? (
        <SelectField
          label={text("devices.fields.sync")}
          name="sync"
          defaultValue={query.sync}
          options={[any, ...syncStates.map((s) => ({ value: s, label: text(`fleetStates.sync.${s}`) }))]}
        />
      ) : null}
      <SelectField
        label={text("devices.fields.contact")}
        name="contact"
        defaultValue={query.contact}
        options={[any, ...contactStates.map((s) => ({ value: s, label: text(`fleetStates.contact.${s}`) }))]}
      />
      <SelectField
        label={text("devices.filters.status")}
        name="status"
        defaultValue={query.status}
        options={[
          { value: "active", label: text("devices.status.active") },
          { value: "retired", label: text("devices.status.retired") },
        ]}
      />
      <SelectField
        label={text("devices.filters.sort")}
        name="sort"
        defaultValue={query.sort}
        options={(["uid", "-uid", "name", "-name", "seen", "-seen"] as const).map((s) => ({
          value: s,
          label: text(`devices.sorts.${s.replace("-", "desc_")}`),
        }))}
      />
      {data.statesKnown ? null : (
        <p className="text-sm text-slate-600 sm:col-span-3 lg:col-span-4">{t("devices.list.syncPerAccount")}</p>
      )}
      <div className="flex items-end gap-2">
        <Button type="submit" variant="secondary">
          {t("devices.filters.apply")}
        </Button>
        <a href={devicesHref(frame)} className="text-sm font-medium text-brand-700 hover:underline">
          {t("devices.filters.clear")}
        </a>
      </div>
    </form>
  );
}

function BulkControls({ data }: { data: Data }) {
  const { t } = usePage();
  const text = (key: string) => String(t(key));
  const { options, frame, account } = data;
  return (
    <fieldset className="mt-4 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">{t("devices.bulk.legend")}</legend>
      <SelectField
        label={text("devices.bulk.scope")}
        name="scope"
        defaultValue="selected"
        options={[
          { value: "selected", label: text("devices.bulk.selected") },
          { value: "all", label: text("devices.bulk.allMatching") },
        ]}
      />
      <SelectField
        label={text("devices.bulk.action")}
        name="bulkAction"
        defaultValue="addTag"
        options={[
          { value: "addTag", label: text("devices.bulk.addTag") },
          { value: "removeTag", label: text("devices.bulk.removeTag") },
          { value: "assign", label: text("devices.bulk.assign") },
          { value: "command", label: text("devices.bulk.sendCommand") },
        ]}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="bulk-tag" className="text-sm font-medium text-slate-800">
          {t("devices.bulk.tag")}
        </label>
        <input
          id="bulk-tag"
          name="tag"
          maxLength={32}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm sm:text-sm"
        />
      </div>
      <SelectField
        label={text("devices.bulk.target")}
        name="target"
        defaultValue=""
        hint={text("devices.bulk.targetHint")}
        options={[
          { value: "", label: text("devices.bulk.targetNone") },
          ...(account
            ? [{ value: account._id, label: account.name }]
            : options.accounts.map((a) => ({ value: a.id, label: a.name }))),
        ]}
      />
      <div className="flex items-end sm:col-span-2 lg:col-span-4">
        <Button type="submit">{t("devices.bulk.apply")}</Button>
      </div>
      {frame.accountId ? null : null}
    </fieldset>
  );
}

function DevicesList({ data, form }: PageProps<Data>) {
  const { t, user } = usePage();
  const { frame, account, query, items, next } = data;
  const canManage = user?.permissions["manage-devices"] === true;
  const base = devicesHref(frame);
  const search = queryString(query, { after: "" });
  const title = String(t(account ? "devices.registry.title" : "routes.devices"));
  const actions = (
    <div className="flex flex-wrap gap-2">
      {canManage ? <ButtonLink href={addDeviceHref(frame)}>{t("devices.list.add")}</ButtonLink> : null}
      {canManage ? (
        <ButtonLink href={importHref(frame)} variant="white">
          {t("devices.list.import")}
        </ButtonLink>
      ) : null}
      {frame.accountId ? (
        <ButtonLink href={groupsHref(frame.accountId)} variant="white">
          {t("devices.list.groups")}
        </ButtonLink>
      ) : null}
      {canManage ? (
        <ButtonLink href={firmwareHref(frame)} variant="white">
          {t("firmware.inventoryLink")}
        </ButtonLink>
      ) : null}
      <a href={exportHref(frame, search)} className={buttonClass("white")} download>
        {t("devices.list.export")}
      </a>
    </div>
  );
  const none = String(t("devices.fields.unassigned"));
  return (
    <DeviceFrame
      account={account}
      title={title}
      description={t(account ? "devices.registry.lead" : "devices.list.lead")}
      actions={actions}
    >
      {data.drift && frame.accountId ? (
        <DriftCountsStrip
          accountId={frame.accountId}
          drift={data.drift}
          firmware={data.firmwareDrift}
          timeZone={pageTimeZone(data.account)}
        />
      ) : null}
      <Filters data={data} />
      {items.length === 0 ? (
        <EmptyState
          title={String(t(query.after ? "devices.list.noMoreTitle" : "devices.list.emptyTitle"))}
          description={String(t("devices.list.empty"))}
        />
      ) : (
        <form method="post" action={`${base}${search}`}>
          {form?.errors.form ? (
            <FormAlert message={String(form.errors.form.includes(" ") ? form.errors.form : t(form.errors.form))} />
          ) : null}
          {filterFieldNames.map((name) => (
            <input key={name} type="hidden" name={`filter_${name}`} value={query[name]} />
          ))}
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">{title}</caption>
              <thead className="bg-slate-50">
                <tr>
                  {canManage ? (
                    <th scope="col" className="px-4 py-3 text-left">
                      <span className="sr-only">{t("devices.bulk.choose")}</span>
                    </th>
                  ) : null}
                  {(
                    ["uid", "name", "model", "firmware", "place", "sync", "revisions", "contact", "lastSeen", "battery"] as const
                  ).map((key) => (
                    <th key={key} scope="col" className="px-4 py-3 text-left font-semibold text-slate-700">
                      {t(`devices.fields.${key}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((device) => (
                  <tr key={device.uid}>
                    {canManage ? (
                      <td className="px-4 py-2">
                        <input
                          type="checkbox"
                          name="uid"
                          value={device.uid}
                          aria-label={String(t("devices.bulk.chooseOne", { uid: device.uid }))}
                        />
                      </td>
                    ) : null}
                    <td className="px-4 py-2 font-mono">
                      <a href={deviceHref(frame, "view", device.uid)} className="font-medium text-brand-700 hover:underline">
                        {device.uid}
                      </a>
                    </td>
                    <td className="px-4 py-2">{device.name}</td>
                    <td className="px-4 py-2">{device.model}</td>
                    <td className="px-4 py-2">{device.firmware || "—"}</td>
                    <td className="px-4 py-2">
                      {canManage && !frame.accountId ? (
                        <a href={assignmentHref(device.uid)} className="hover:underline">
                          {placeOf(device, none)}
                        </a>
                      ) : (
                        placeOf(device, none)
                      )}
                    </td>
                    <td className="px-4 py-2" data-sync={device.sync ?? "unknown"}>
                      {device.sync ? t(`fleetStates.sync.${device.sync}`) : "—"}
                    </td>
                    <td className="px-4 py-2 whitespace-nowrap">
                      <Revisions device={device} />
                    </td>
                    <td className="px-4 py-2" data-contact={device.contact}>
                      {t(`fleetStates.contact.${device.contact}`)}
                    </td>
                    <td className="px-4 py-2">
                      <LastSeen value={device.lastSeenAt} timeZone={pageTimeZone(account)} />
                    </td>
                    <td className="px-4 py-2">{device.battery === null ? "—" : `${device.battery}%`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="mt-2 text-xs text-slate-600">
            {t("devices.fields.lastSeenResolution")}
            {query.sort.endsWith("seen") ? ` ${t("devices.fields.seenSortResolution")}` : null}
          </p>
          <nav aria-label={String(t("devices.list.pages"))} className="mt-3 flex gap-2">
            {query.after ? (
              <a href={`${base}${search}`} className={buttonClass("white", "sm")}>
                {t("devices.list.first")}
              </a>
            ) : null}
            {next ? (
              <a href={`${base}${queryString(query, { after: next })}`} rel="next" className={buttonClass("white", "sm")}>
                {t("devices.list.next")}
              </a>
            ) : null}
          </nav>
          {canManage && query.status === "active" ? <BulkControls data={data} /> : null}
        </form>
      )}
    </DeviceFrame>
  );
}

/** What a bulk post asks: chosen radios (or all matching the posted filter), an action and its target. */
async function bulkAction(c: RouteContext, frame: Frame): Promise<ActionResult> {
  const body = await c.req.parseBody({ all: true });
  const one = (name: string) => {
    const value = body[name];
    return typeof value === "string" ? value : "";
  };
  const uids = ([] as unknown[]).concat(body.uid ?? []).filter((v): v is string => typeof v === "string");
  const params = new URLSearchParams();
  for (const name of filterFieldNames) params.set(name, one(`filter_${name}`));
  const query = parseDevicesQuery(params);
  const scope = frame.accountId ? { accountId: frame.accountId } : {};
  const selection = one("scope") === "all" ? { filter: filterOf(query) } : { uids };
  const values = { scope: one("scope"), bulkAction: one("bulkAction"), tag: one("tag"), target: one("target") };
  const back = `${devicesHref(frame)}${queryString(query, { after: "" })}`;
  try {
    if (one("scope") !== "all" && uids.length === 0)
      return { ok: false, status: 400, form: { values, errors: { form: "devices.bulk.noneSelected" } } };
    // A command goes on to its own form (issue 13), carrying the selection or the filter.
    if (values.bulkAction === "command") {
      const chosen =
        one("scope") === "all"
          ? queryString(query, { after: "" })
          : `?${uids.map((uid) => `uid=${encodeURIComponent(uid)}`).join("&")}`;
      return { ok: true, redirect: bulkHref(frame.accountId ? { accountId: frame.accountId } : {}, chosen) };
    }
    const caller = api(c);
    if (values.bulkAction === "assign") {
      const { changed } = await caller.devices.bulkAssign({ ...scope, selection, target: { accountId: values.target || null } });
      return { ok: true, redirect: back, flash: { type: "success", key: "devices.bulk.assigned", values: { count: changed } } };
    }
    const add = values.bulkAction !== "removeTag";
    const { changed } = await caller.devices.bulkTag({ ...scope, selection, tag: values.tag, add });
    return {
      ok: true,
      redirect: back,
      flash: {
        type: "success",
        key: add ? "devices.bulk.tagged" : "devices.bulk.untagged",
        values: { count: changed, tag: values.tag },
      },
    };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    if (error.code === "NOT_FOUND" || error.code === "UNAUTHORIZED") throw error;
    const status =
      error.code === "FORBIDDEN" ? 403 : error.code === "PRECONDITION_FAILED" ? 422 : error.code === "CONFLICT" ? 409 : 400;
    const cause = error.cause as { key?: string } | undefined;
    const message = cause?.key ?? (error.code === "BAD_REQUEST" ? "devices.bulk.invalid" : "errors.internal");
    return { ok: false, status, form: { values, errors: { form: message } } };
  }
}

/** Whether the list is one account's (the registry, or one account chosen in the organization's inventory). */
const oneAccount = (frame: Frame, query: DevicesQuery) =>
  Boolean(frame.accountId) || (query.account !== "" && query.account !== "none");

async function loadList(c: RouteContext, frame: Frame): Promise<Data> {
  const parsed = parseDevicesQuery(new URL(c.req.url).searchParams);
  // Sync states are per account: across accounts the filter is not offered, so not applied.
  const query = oneAccount(frame, parsed) ? parsed : { ...parsed, sync: "" as const };
  const scope = frame.accountId ? { accountId: frame.accountId } : {};
  const caller = api(c);
  const [account, page, options, drift, firmwareDrift] = await Promise.all([
    frame.accountId ? accountDetails(c, frame.accountId) : Promise.resolve(null),
    caller.devices.list({
      ...scope,
      filter: filterOf(query),
      sort: query.sort,
      limit: DEVICES_PAGE_SIZE,
      ...(query.after ? { cursor: query.after } : {}),
    }),
    caller.devices.filterOptions(scope),
    frame.accountId ? caller.deployments.drift({ accountId: frame.accountId }) : Promise.resolve(null),
    frame.accountId ? caller.devices.firmwareDrift({ accountId: frame.accountId }) : Promise.resolve(null),
  ]);
  return {
    frame,
    account,
    query,
    items: page.items,
    next: page.next,
    statesKnown: page.statesKnown,
    options,
    drift,
    firmwareDrift,
  };
}

/** /devices (manage-devices): the organization's inventory. */
export const devicesListPage = definePage<Data>({
  load: (c) => loadList(c, { accountId: null }),
  Component: DevicesList,
  action: (c) => bulkAction(c, { accountId: null }),
});

/** /accounts/{id}/registry/devices (view-devices-in-accounts): the account's radios. */
export const registryDevicesPage = definePage<Data>({
  load: (c) => loadList(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: DevicesList,
  action: (c) => bulkAction(c, { accountId: c.req.param("accountId") ?? "" }),
});
