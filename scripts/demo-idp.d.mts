// Types of scripts/demo-idp.mjs for the TypeScript that imports it (the browser tests).
export type DemoAccount = { email: string; emailVerified: boolean; name: string; password: string };
export type DemoClient = { clientId: string; clientSecret: string; redirectUris: string[] };
/** Test hooks: change an incoming request's URL, or the Location of a redirect sent (in place). */
export type DemoIdpHooks = { request?: (url: URL) => void; redirect?: (location: URL) => void };
export type DemoIdp = {
  issuer: string;
  accounts: Map<string, DemoAccount>;
  hooks: DemoIdpHooks;
  close: () => Promise<void>;
};

export function demoAccounts(): Map<string, DemoAccount>;
export function startDemoIdp(options: {
  port: number;
  clients: DemoClient[];
  accounts?: Map<string, DemoAccount>;
  name?: string;
  hooks?: DemoIdpHooks;
}): Promise<DemoIdp>;
