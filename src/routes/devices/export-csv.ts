import { api } from "@/server/api/procedures-route";
import type { Device } from "@/server/data/devices";
import { translatorFor } from "@/server/i18n/i18n";
import { definePage, type RouteContext } from "../types";
import { filterOf, parseDevicesQuery } from "./list-query";
import type { Frame } from "./paths";

/** Rows fetched per step of the stream (a keyset page). */
const STEP = 1000;

// A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) is kept as text.
function inert(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function record(device: Device) {
  return {
    uid: device.uid,
    brand: inert(device.brand),
    model: inert(device.model),
    name: inert(device.name),
    tags: inert(device.tags.join(";")),
    account: inert(device.accountName ?? ""),
    site: inert(device.siteName ?? ""),
    location: inert(device.locationName ?? ""),
    firmware: inert(device.firmware),
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
  const { stringify } = await import("csv-stringify/browser/esm/sync");
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
  // The first page before the answer starts, so a refusal is an error page, not a broken file.
  let page = await fetchPage();
  let first = true;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const csv = stringify(page.items.map(record), {
        header: first,
        bom: first,
        // The import reads these names; a spreadsheet user sees the same words the import asks for.
        columns: keys.map((key) => ({ key, header: key === "lastSeen" ? String(t("devices.csv.lastSeen")) : key })),
        record_delimiter: "windows",
      });
      first = false;
      if (csv) controller.enqueue(encoder.encode(csv));
      if (!page.next) {
        controller.close();
        return;
      }
      page = await fetchPage(page.next);
    },
  });
  const name = frame.accountId ? `devices-${frame.accountId.replace(/[^\w-]/g, "")}` : "devices";
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

export const exportDevicesPage = definePage({ load: (c) => exportCsv(c, { accountId: null }), Component: () => null });

export const registryExportDevicesPage = definePage({
  load: (c) => exportCsv(c, { accountId: c.req.param("accountId") ?? "" }),
  Component: () => null,
});
