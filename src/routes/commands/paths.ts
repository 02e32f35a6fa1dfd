/**
 * Where a radio's command screens live (spec §2): under the organization's inventory
 * (/devices/{uid}/…) or inside an account's registry (/accounts/{id}/registry/devices/{uid}/…).
 */
export type CommandScope = { accountId?: string };

const enc = encodeURIComponent;

export function devicesBase(scope: CommandScope): string {
  return scope.accountId ? `/accounts/${enc(scope.accountId)}/registry/devices` : "/devices";
}

export const historyHref = (scope: CommandScope, uid: string, query = "") => `${devicesBase(scope)}/${enc(uid)}/commands${query}`;
export const commandHref = (scope: CommandScope, uid: string, id: string) =>
  `${devicesBase(scope)}/${enc(uid)}/commands/${enc(id)}`;
export const sendHref = (scope: CommandScope, uid: string) => `${devicesBase(scope)}/${enc(uid)}/send-command`;
export const testHref = (scope: CommandScope, uid: string, query = "") => `${devicesBase(scope)}/test/${enc(uid)}${query}`;
export const batchesHref = (scope: CommandScope, query = "") => `${devicesBase(scope)}/batches${query}`;
export const batchHref = (scope: CommandScope, id: string) => `${devicesBase(scope)}/batches/${enc(id)}`;
export const bulkHref = (scope: CommandScope, query = "") => `${devicesBase(scope)}/send-command${query}`;

/**
 * Words that name other device screens in the same place as a uid (/devices/view/…,
 * /devices/test/…): a radio with such a uid reaches its commands through the account registry.
 */
export const RESERVED =
  "(?!(?:add|edit|view|test|redirect|uid|profiles|send-command|batches|groups|edit-fc-device-settings|list)$)[^/]+";
