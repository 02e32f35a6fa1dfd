import type { Frame } from "../devices/paths";

/**
 * Where the firmware package screens live (issue 26), in both frames of the inventory: the
 * organization's under /devices/firmware, an account's under /accounts/{id}/registry/firmware.
 */
const enc = encodeURIComponent;

export function firmwareHref(frame: Frame): string {
  return frame.accountId ? `/accounts/${enc(frame.accountId)}/registry/firmware` : "/devices/firmware";
}

export const uploadFirmwareHref = (frame: Frame) => `${firmwareHref(frame)}/new`;
export const firmwarePackageHref = (frame: Frame, packageId: string) => `${firmwareHref(frame)}/view/${enc(packageId)}`;
export const deleteFirmwareHref = (frame: Frame, packageId: string) => `${firmwarePackageHref(frame, packageId)}/delete`;

/** The frame a request's path names: the account of /accounts/{accountId}/…, else the organization. */
export function frameOf(accountId: string | undefined): Frame {
  return { accountId: accountId || null };
}

/** A file size in the page's language: kB below a megabyte, MB with one decimal above. */
export function formatSize(bytes: number, language: string): string {
  const mega = bytes >= 1_000_000;
  return new Intl.NumberFormat(language, {
    style: "unit",
    unit: mega ? "megabyte" : "kilobyte",
    maximumFractionDigits: 1,
  }).format(mega ? bytes / 1_000_000 : bytes / 1000);
}
