/** The demo accounts' sites, locations, network settings, profiles, rules and recent changes (demo-workspaces.mjs). */
export type DemoWorkspace = {
  accountId: string;
  network: Record<string, unknown>;
  sites: {
    id: string;
    name: string;
    address: string;
    timezone?: string;
    network?: Record<string, unknown>;
    locations: { id: string; name: string; description: string; network?: Record<string, unknown> }[];
  }[];
  profiles: { id: string; type: string; name: string; settings: Record<string, unknown> }[];
  rules: { id: string; name: string; conditions: Record<string, unknown>; profileIds: string[] }[];
  changes: {
    id: string;
    actor: string;
    action: "create" | "update" | "delete";
    entityType: string;
    entityId: string;
    entityLabel: string;
    diff: Record<string, { before?: unknown; after?: unknown }>;
    at: string;
  }[];
};
export const workspaces: DemoWorkspace[];
