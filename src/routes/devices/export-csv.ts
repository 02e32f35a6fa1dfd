import { csvDownload } from "@/routes/csv-download";
import { api } from "@/server/api/procedures-route";
import type { Device } from "@/server/data/devices";
import { translatorFor } from "@/server/i18n/i18n";
import { definePage, type RouteContext } from "../types";
import { filterOf, parseDevicesQuery } from "./list-query";
import type { Frame } from "./paths";

/** Rows fetched per step of the stream (a keyset page). */
const STEP = 1000;

function record(device: Device) {
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
    lastSeen: device.lastSeenAt ?? "",
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
  ];
  const name = frame.accountId ? `devices-${frame.accountId}` : "devices";
  return csvDownload({
    filename: `${name}.csv`,
    // The import reads these names; a spreadsheet user sees the same words the import asks for.
    columns: keys.map((key) => ({ key, header: key === "lastSeen" ? String(t("devices.csv.lastSeen")) : key })),
    fetchPage,
    record,
  });
}

export const exportDevicesPage = definePage({ load: (c) => exportCsv(c, { accountId: null }), Component: () => null });

export const registryExportDevicesPage = definePage({
  load: (c) => exportCsv(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: () => null,
});
