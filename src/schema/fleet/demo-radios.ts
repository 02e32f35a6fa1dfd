/**
 * The local demo's radios (scripts/demo-data.mjs seeds them into Harbor Demo Fleet): the
 * simulator offers them by name when APP_ENV is not production. Their secrets are demo
 * values, public by design, and never exist in a deployed database (the seed is local only).
 */
export const demoRadios = ["HD-0001", "HD-0002", "HD-0003", "HD-0004", "HD-0005"] as const;

export function demoSecretOf(uid: string): string {
  return `demo-secret-${uid.toLowerCase()}`;
}
