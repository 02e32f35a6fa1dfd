/** The customer-care desk's vocabulary (issue 15), shared by procedures, pages and tests. */
export const fcPriorities = ["low", "medium", "high", "urgent"] as const;
export type FcPriority = (typeof fcPriorities)[number];

export const fcStatuses = ["open", "in-progress", "waiting", "closed"] as const;
export type FcStatus = (typeof fcStatuses)[number];

/** The tabs of /accounts/:accountId/fc-cases/:tab (spec §2), with the flag each needs (spec §6). */
export const fcTabs = [
  ["fc-dashboard", "view-fc-sessions"],
  ["list-fc-sessions", "view-fc-sessions"],
  ["list-fc-customers", "view-fc-users"],
  ["list-fc-employees", "view-fc-users"],
  ["fc-settings", "view-all-users"],
] as const;
export type FcTab = (typeof fcTabs)[number][0];

/** Commands an agent may send from a session (stun and revive stay with fleet managers). */
export const fcCommandTypes = ["ping", "locate", "message", "reboot", "sync"] as const;
export type FcCommandType = (typeof fcCommandTypes)[number];

export const fcLimits = { categories: 20, categoryLength: 40, note: 4000, subject: 200, radiosPerSession: 10 } as const;
