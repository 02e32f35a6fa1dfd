import { syncStates } from "@/schema/fleet/sync-state";
import { reportIds } from "@/schema/reports";
import type { Parameter } from "./types";

/**
 * The CSV downloads a token may fetch (integratorDownloads), as the document lists them: a
 * path template, its parameters and the key of its summary (apiDocs.downloads.*). A test
 * checks each template against integratorDownloads, both ways.
 */
export type DownloadEntry = {
  key: string;
  path: string;
  permission?: string;
  parameters: Parameter[];
  /** A realistic request of it on the demo ids, and the file curl saves it to (the reference page's example). */
  example: { path: string; file: string };
};

const accountId: Parameter = { name: "accountId", in: "path", required: true, schema: { type: "string" } };
const optional = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const day = { type: "string", format: "date" };

export const downloadEntries: DownloadEntry[] = [
  {
    key: "devices",
    path: "/accounts/{accountId}/registry/devices/export.csv",
    example: { path: "/accounts/acc_metro_bus/registry/devices/export.csv?site=site_mta_north", file: "radios.csv" },
    permission: "view-devices-in-accounts",
    parameters: [
      accountId,
      optional("q", "Search in uid, name, model and tags."),
      optional("site", "A site id."),
      optional("model", "A model."),
      optional("firmware", "A firmware version."),
      optional("sync", "A sync state.", { type: "string", enum: [...syncStates] }),
      optional("status", "Retired radios instead of active ones.", { type: "string", enum: ["active", "retired"] }),
    ],
  },
  {
    key: "activity",
    path: "/accounts/{accountId}/activity-logs/export.csv",
    example: { path: "/accounts/acc_metro_bus/activity-logs/export.csv?from=2026-10-01&to=2026-10-31", file: "activity.csv" },
    parameters: [
      accountId,
      optional("type", "An entity type (site, location, profile, rule, device …)."),
      optional("actor", "Who made the change (email or token label)."),
      optional("from", "First day, in the account's time zone.", day),
      optional("to", "Last day, in the account's time zone.", day),
    ],
  },
  {
    key: "report",
    path: "/accounts/{accountId}/reports/{reportId}",
    example: { path: "/accounts/acc_metro_bus/reports/commands?format=csv&from=2026-10-01&to=2026-10-31", file: "commands.csv" },
    permission: "view-reports-in-non-advanced-accounts",
    parameters: [
      accountId,
      { name: "reportId", in: "path", required: true, schema: { type: "string", enum: [...reportIds] } },
      { name: "format", in: "query", required: true, schema: { type: "string", const: "csv" } },
      optional("by", "A grouping the report offers."),
      optional("from", "First day (reports about events).", day),
      optional("to", "Last day (reports about events).", day),
    ],
  },
];

/** A path template with sample values, to test it against integratorDownloads' patterns. */
export function samplePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, "sample");
}
