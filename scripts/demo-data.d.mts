/** The parts of the demo seed (demo-data.mjs) that tests read. */
export const accounts: { id: string; orgId: string; name: string }[];
/** The simulator's radios, with public demo secrets. */
export const radios: { uid: string; orgId: string; accountId: string }[];
/** Each demo account's generated fleet: `count` radios `<prefix>-0001` … */
export const fleets: { accountId: string; orgId: string; prefix: string; count: number; name: string; tags: string[] }[];
