/**
 * What a firmware package's Ed25519 signature covers (issue 26, docs/device-protocol.md): the
 * package's identity, version, SHA-256 and size, one per line. A radio rebuilds this text from
 * the check-in's `firmware.package`, hashes the downloaded file itself and checks both, so a file
 * swapped in storage or a package re-labelled with another version fails verification.
 */
export type ManifestFields = { packageId: string; version: string; sha256: string; size: number };

export const MANIFEST_HEADER = "configuration-tool-firmware/1";

export function firmwareManifest(p: ManifestFields): string {
  return `${MANIFEST_HEADER}\n${p.packageId}\n${p.version}\n${p.sha256}\n${p.size}\n`;
}

/** Where a package's file lives in the FIRMWARE bucket: derivable from its id alone, so a download needs no D1 read. */
export function packageObjectKey(packageId: string): string {
  return `packages/${packageId}`;
}

/**
 * A firmware report's stages in the order a radio goes through them (forward only), and the
 * engine state each counts as: every stage before `updated` is in progress (`applying`).
 */
export const FIRMWARE_PROGRESS_STAGES = ["downloading", "downloaded", "verified", "installing", "rebooting"] as const;
export type FirmwareProgressStage = (typeof FIRMWARE_PROGRESS_STAGES)[number];
/** Where a failure happened: a `failed` report names one; `booted-old` is a failure of the boot itself. */
export const FIRMWARE_FAILURE_STAGES = ["download", "verify", "install", "reboot"] as const;
export type FirmwareFailureStage = (typeof FIRMWARE_FAILURE_STAGES)[number];
/** What deployment_devices.stage may hold. */
export type FirmwareStage = FirmwareProgressStage | FirmwareFailureStage | "updated" | "booted-old";
