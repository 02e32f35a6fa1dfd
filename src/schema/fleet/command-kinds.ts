/** Command types, states and expiry choices without zod (islands and their registry import these). */
export const commandTypes = ["ping", "locate", "message", "reboot", "sync", "stun", "revive"] as const;
export type CommandType = (typeof commandTypes)[number];

export const commandStates = ["queued", "sent", "delivered", "succeeded", "failed", "expired", "cancelled"] as const;
export type CommandState = (typeof commandStates)[number];

/** The expiry choices the send forms offer (hours): default 24, at most 7 days. */
export const expiryChoices = [1, 4, 24, 72, 168] as const;
