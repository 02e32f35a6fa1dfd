import type { FcTab } from "@/schema/fc-cases";

/** Links of the customer-care desk (spec §2: /accounts/{accountId}/fc-cases/{tab}). */
const base = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/fc-cases`;

export const fcTabHref = (accountId: string, tab: FcTab) => `${base(accountId)}/${tab}`;
export const fcSessionsHref = (accountId: string, query = "") => `${base(accountId)}/list-fc-sessions${query}`;
export const fcSessionHref = (accountId: string, id: string) => `${base(accountId)}/list-fc-sessions/${encodeURIComponent(id)}`;
export const fcAddSessionHref = (accountId: string, query = "") => `${base(accountId)}/list-fc-sessions/add${query}`;
export const fcSessionsCsvHref = (accountId: string, query = "") => `${base(accountId)}/list-fc-sessions/export.csv${query}`;
export const fcCustomersHref = (accountId: string, query = "") => `${base(accountId)}/list-fc-customers${query}`;
export const fcCustomerHref = (accountId: string, id: string) => `${base(accountId)}/list-fc-customers/${encodeURIComponent(id)}`;
export const fcAddCustomerHref = (accountId: string) => `${base(accountId)}/list-fc-customers/add`;
export const fcEmployeesHref = (accountId: string) => `${base(accountId)}/list-fc-employees`;
export const fcAddEmployeeHref = (accountId: string) => `${base(accountId)}/list-fc-employees/add`;
export const fcEditEmployeeHref = (accountId: string, id: string) =>
  `${base(accountId)}/list-fc-employees/edit/${encodeURIComponent(id)}`;

/** A radio's fc settings: in the account's registry, or in the organization's inventory. */
export const fcDeviceSettingsHref = (uid: string, accountId?: string | null) =>
  accountId
    ? `/accounts/${encodeURIComponent(accountId)}/registry/devices/edit-fc-device-settings/${encodeURIComponent(uid)}`
    : `/devices/edit-fc-device-settings/${encodeURIComponent(uid)}`;
