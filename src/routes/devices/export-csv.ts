import { csvDownload } from "@/routes/csv-download";
import { zonedHeader } from "@/schema/format";
import { wallClock } from "@/schema/zoned-date";
import { api } from "@/server/api/procedures-route";
import { accountDetails } from "@/server/current-account";
import type { ListedDevice } from "@/server/data/devices";
import { type Translate, translatorFor } from "@/server/i18n/i18n";
import { definePage, type RouteContext } from "../types";
import { filterOf, parseDevicesQuery } from "./list-query";
import type { Frame } from "./paths";

/** Rows fetched per step of the stream (a keyset page). */
const STEP = 1000;

/** A row of the export: the import's columns, then the radio's state in the words every screen uses. */
const recordOf = (t: Translate, timeZone: string) => (device: ListedDevice) => ({
  ...importColumns(device, timeZone),
  sync: device.sync ? String(t(`fleetStates.sync.${device.sync}`)) : "",
  contact: String(t(`fleetStates.contact.${device.contact}`)),
});

function importColumns(device: ListedDevice, timeZone: string) {
  return {
    uid: device.uid,
    brand: device.brand,
    model: device.model,
    name: device.name,
    tags: device.tags.join(";"),
    account: device.accountName ?? "",
    site: device.siteName ?? "",
    location: device.locationName ?? "",
    firmware: device.firmware,
    battery: device.battery ?? "",
    signal: device.signal ?? "",
    lastSeen: device.lastSeenAt ? wallClock(device.lastSeenAt, timeZone) : "",
    status: device.status,
  };
}

/**
 * GET …/devices/export.csv: the filtered list as CSV, streamed a keyset page at a time (never
 * all rows in memory). The first columns are the import's, so a file exported can be edited
 * and imported back with "update existing".
 */
async function exportCsv(c: RouteContext, frame: Frame): Promise<Response> {
  const query = parseDevicesQuery(new URL(c.req.url).searchParams);
  const caller = api(c);
  const scope = frame.accountId ? { accountId: frame.accountId } : {};
  // Times on the account's wall clock (UTC in the organization's inventory), the header naming the zone.
  const timeZone = frame.accountId ? (await accountDetails(c, frame.accountId)).timezone : "UTC";
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  const fetchPage = (cursor?: string) =>
    caller.devices.list({ ...scope, filter: filterOf(query), sort: query.sort, limit: STEP, ...(cursor ? { cursor } : {}) });
  const keys = [
    "uid",
    "brand",
    "model",
    "name",
    "tags",
    "account",
    "site",
    "location",
    "firmware",
    "battery",
    "signal",
    "lastSeen",
    "status",
    // Sync is one account's (empty across accounts, as on the page); contact is every radio's.
    "sync",
    "contact",
  ];
  const name = frame.accountId ? `devices-${frame.accountId}` : "devices";
  return csvDownload({
    filename: `${name}.csv`,
    // The import reads these names; a spreadsheet user sees the same words the import asks for.
    columns: keys.map((key) => ({ key, header: key === "lastSeen" ? zonedHeader(key, timeZone) : key })),
    fetchPage,
    record: recordOf(t, timeZone),
  });
}

export const exportDevicesPage = definePage({ load: (c) => exportCsv(c, { accountId: null }), Component: () => null });

export const registryExportDevicesPage = definePage({
  load: (c) => exportCsv(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: () => null,
});
