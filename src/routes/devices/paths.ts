import type { ContactState, SyncState } from "@/schema/fleet/sync-state";

/**
 * Where the device screens live: the organization's inventory under /devices, and the same
 * screens in an account's frame under /accounts/{id}/registry/devices (spec §2).
 */
export type Frame = { accountId: string | null };

const enc = encodeURIComponent;

export function devicesHref(frame: Frame): string {
  return frame.accountId ? `/accounts/${enc(frame.accountId)}/registry/devices` : "/devices";
}

export function deviceHref(frame: Frame, screen: "view" | "edit" | "redirect", uid: string): string {
  return `${devicesHref(frame)}/${screen}/${enc(uid)}`;
}

export function addDeviceHref(frame: Frame, uid?: string): string {
  return `${devicesHref(frame)}/add${uid ? `/${enc(uid)}` : ""}`;
}

export function importHref(frame: Frame): string {
  return `${devicesHref(frame)}/import`;
}

export function exportHref(frame: Frame, search: string): string {
  return `${devicesHref(frame)}/export.csv${search}`;
}

/** The assignment screens are the organization's (spec §2: devices/uid/{uid} and uid/{uid}/edit). */
export function assignmentHref(uid: string, edit = false): string {
  return `/devices/uid/${enc(uid)}${edit ? "/edit" : ""}`;
}

export function registryHref(accountId: string, tab: "devices" | "subscriptions" | "firmware"): string {
  return `/accounts/${enc(accountId)}/registry/${tab}`;
}

/** An account's inventory filtered to the radios in one sync or contact state (the counts link here). */
export function radiosInStateHref(accountId: string, filter: { sync: SyncState } | { contact: ContactState }): string {
  return `${registryHref(accountId, "devices")}?${new URLSearchParams(filter)}`;
}
