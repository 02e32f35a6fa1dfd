import { z } from "zod";
import type { ReportState } from "./deployment-plan";
import { FIRMWARE_FAILURE_STAGES, FIRMWARE_PROGRESS_STAGES, type FirmwareStage } from "./firmware-manifest";

/**
 * A radio's report on a firmware deployment (docs/device-protocol.md "Firmware over the air"):
 * what it says, and what the engine stores and counts. Every stage before `updated` is in
 * progress (`applying`); `updated` is applied; a failure at any stage and a boot of the old
 * firmware are failures (they count against the error threshold).
 */
export const firmwareReportStates = [
  ...FIRMWARE_PROGRESS_STAGES,
  "updated",
  "booted-old",
  "failed",
  "already_in_sync",
  "rejected",
] as const;
export type FirmwareReportState = (typeof firmwareReportStates)[number];

export const firmwareReportBody = z
  .object({
    state: z.enum(firmwareReportStates),
    progress: z.number().int().min(0).max(100).optional(),
    stage: z.enum(FIRMWARE_FAILURE_STAGES).optional(),
    code: z.string().max(40).optional(),
    detail: z.string().max(500).optional(),
  })
  .strict()
  .refine((body) => body.state !== "failed" || body.stage !== undefined, {
    path: ["stage"],
    message: "a failed report names its stage (download, verify, install or reboot)",
  });
export type FirmwareReport = z.infer<typeof firmwareReportBody>;

/** Progress is kept in 10 % steps: more frequent reports change nothing (and write nothing). */
export const PROGRESS_STEP = 10;

export type StoredFirmwareReport = { state: ReportState; stage: FirmwareStage | null; progress: number | null };

/** What the engine stores for a report. */
export function storedReport(report: FirmwareReport): StoredFirmwareReport {
  switch (report.state) {
    case "updated":
      return { state: "applied", stage: "updated", progress: null };
    case "booted-old":
      return { state: "failed", stage: "booted-old", progress: null };
    case "failed":
      return { state: "failed", stage: report.stage ?? "install", progress: null };
    case "already_in_sync":
    case "rejected":
      return { state: report.state, stage: null, progress: null };
    case "downloading":
      return {
        state: "applying",
        stage: "downloading",
        progress: Math.floor((report.progress ?? 0) / PROGRESS_STEP) * PROGRESS_STEP,
      };
    default:
      return { state: "applying", stage: report.state, progress: null };
  }
}

const stageOrder: Partial<Record<FirmwareStage, number>> = { downloaded: 1, verified: 2, installing: 3, rebooting: 4 };

/**
 * How far a stored report is (forward only): delivered (a retry waiting) < downloading by
 * progress < downloaded < verified < installing < rebooting < any final state.
 */
export function firmwareRank(report: StoredFirmwareReport): number {
  if (report.state === "delivered") return 100;
  if (report.state !== "applying") return 900;
  if (report.stage === "downloading") return 200 + (report.progress ?? 0);
  return 300 + (stageOrder[report.stage ?? "downloaded"] ?? 1) * 10;
}

/** firmwareRank in SQL over a deployment_devices row (or `excluded`). */
export function firmwareRankSql(row: string): string {
  return `(CASE ${row}.state WHEN 'delivered' THEN 100 WHEN 'applying' THEN
    CASE ${row}.stage WHEN 'downloading' THEN 200 + ifnull(${row}.progress, 0)
      WHEN 'verified' THEN 320 WHEN 'installing' THEN 330 WHEN 'rebooting' THEN 340 ELSE 310 END
    ELSE 900 END)`;
}

/**
 * What a radio is told it reported (`yourState`), in the words it reported with: its progress
 * stage, `updated`, `booted-old`, `failed` (whatever the stage), or the state without a stage.
 */
export function firmwareYourState(report: StoredFirmwareReport | undefined): string {
  if (!report || report.state === "delivered") return "pending";
  if (report.state === "failed" && report.stage !== "booted-old") return "failed";
  return report.stage ?? report.state;
}
