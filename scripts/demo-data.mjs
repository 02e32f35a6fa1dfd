// The demo organization loaded by `npm start` and `npm run dev` into the local D1 only.
// Fixed ids make the seed idempotent: running it again changes nothing.

export const organizations = [
  { id: "org_northwind", name: "Northwind Radio", kind: "vendor", parentId: null },
  { id: "org_harbor", name: "Harbor Communications", kind: "dealer", parentId: "org_northwind" },
  { id: "org_metro", name: "Metro Transit Authority", kind: "customer", parentId: "org_harbor" },
  { id: "org_lakeside", name: "Lakeside School District", kind: "customer", parentId: "org_harbor" },
  // An unrelated customer, to show (and test) that tenants cannot see each other.
  { id: "org_outsider", name: "Outsider Logistics", kind: "customer", parentId: null },
];

export const accounts = [
  {
    id: "acc_metro_bus",
    orgId: "org_metro",
    name: "Metro Bus Operations",
    subscriptionLevel: "advanced",
    timezone: "America/Chicago",
  },
  {
    id: "acc_metro_rail",
    orgId: "org_metro",
    name: "Metro Rail Maintenance",
    subscriptionLevel: "essential",
    timezone: "America/Chicago",
  },
  {
    id: "acc_lakeside_north",
    orgId: "org_lakeside",
    name: "Lakeside North Campus",
    subscriptionLevel: "essential",
    timezone: "America/Denver",
  },
  {
    id: "acc_harbor_demo",
    orgId: "org_harbor",
    name: "Harbor Demo Fleet",
    subscriptionLevel: "advanced",
    timezone: "America/New_York",
  },
  {
    id: "acc_harbor_depot",
    orgId: "org_harbor",
    name: "Harbor Depot Radios",
    subscriptionLevel: "essential",
    timezone: "America/New_York",
  },
  {
    id: "acc_harbor_field",
    orgId: "org_harbor",
    name: "Harbor Field Crews",
    subscriptionLevel: "advanced",
    timezone: "America/New_York",
  },
  {
    id: "acc_outsider_yard",
    orgId: "org_outsider",
    name: "Outsider Yard Radios",
    subscriptionLevel: "essential",
    timezone: "Europe/Lisbon",
  },
];

/** Every demo user signs in with this password (README lists them). */
export const DEMO_PASSWORD = "radios-demo-2025";

export const users = [
  { id: "usr_owner", orgId: "org_harbor", email: "owner@example.com", name: "Olivia Owner", role: "owner" },
  { id: "usr_admin", orgId: "org_harbor", email: "admin@example.com", name: "Adam Admin", role: "admin" },
  {
    id: "usr_configurator",
    orgId: "org_harbor",
    email: "configurator@example.com",
    name: "Cora Configurator",
    role: "configurator",
  },
  { id: "usr_technician", orgId: "org_harbor", email: "technician@example.com", name: "Theo Technician", role: "technician" },
  { id: "usr_viewer", orgId: "org_harbor", email: "viewer@example.com", name: "Vera Viewer", role: "viewer" },
  { id: "usr_agent", orgId: "org_harbor", email: "agent@example.com", name: "Ada Agent", role: "case-agent", isCaseUser: true },
  // A colleague on the support desk: sessions are handed over to him (fc-cases, issue 15).
  { id: "usr_agent2", orgId: "org_harbor", email: "agent2@example.com", name: "Ben Agent", role: "case-agent", isCaseUser: true },
  {
    id: "usr_twofactor",
    orgId: "org_harbor",
    email: "twofactor@example.com",
    name: "Tomas Twofactor",
    role: "owner",
    twoFactor: "email",
  },
  // The vendor organization's administrator: approves single sign-on domains (/settings/identity-providers).
  { id: "usr_vendor", orgId: "org_northwind", email: "vendor@example.com", name: "Vince Vendor", role: "admin" },
  { id: "usr_outsider", orgId: "org_outsider", email: "outsider@example.net", name: "Oscar Outsider", role: "owner" },
  // Signs in only with single sign-on (no password): `npm run demo:idp`, then "Continue with Harbor SSO".
  {
    id: "usr_alice",
    orgId: "org_harbor",
    email: "alice@harbor-sso.example",
    name: "Alice Harbor",
    role: "configurator",
    password: false,
  },
];

/**
 * Single sign-on providers. "Harbor SSO" is the local demo provider of scripts/demo-idp.mjs
 * (`npm run demo:idp`, http://localhost:9400); its client secret is a demo value, not a secret.
 */
export const identityProviders = [
  {
    id: "idp_harbor_sso",
    orgId: "org_harbor",
    name: "Harbor SSO",
    issuer: "http://localhost:9400",
    clientId: "configuration-tool-demo",
    clientSecret: "demo-client-secret-harbor-sso",
    emailDomains: ["harbor-sso.example"],
  },
];

/**
 * Seats (DESIGN.md §3): subscriptions held by organizations, and the seats they give to
 * accounts. Harbor's demo pool comes from the vendor; Metro and Lakeside got theirs from Harbor.
 */
export const subscriptions = [
  {
    id: "sub_metro_fleet",
    orgId: "org_metro",
    plan: "Fleet Advanced",
    quantity: 50,
    startsAt: "2025-01-01",
    endsAt: "2027-12-31",
    reference: "HC-2025-014",
  },
  {
    id: "sub_lakeside_fleet",
    orgId: "org_lakeside",
    plan: "Fleet Essential",
    quantity: 25,
    startsAt: "2025-08-01",
    endsAt: "2027-07-31",
    reference: "HC-2025-031",
  },
  {
    id: "sub_harbor_demo",
    orgId: "org_harbor",
    plan: "Dealer demo pool",
    quantity: 10,
    startsAt: "2025-01-01",
    endsAt: null,
    reference: "",
  },
];

export const allocations = [
  { id: "alc_metro_bus", subscriptionId: "sub_metro_fleet", accountId: "acc_metro_bus", quantity: 20 },
  { id: "alc_lakeside_north", subscriptionId: "sub_lakeside_fleet", accountId: "acc_lakeside_north", quantity: 10 },
  { id: "alc_harbor_demo", subscriptionId: "sub_harbor_demo", accountId: "acc_harbor_demo", quantity: 5 },
];

/**
 * Demo radios for the simulator (/simulator offers them by uid). Their secrets are public demo
 * values, `demo-secret-<uid in lower case>` (src/schema/fleet/demo-radios.ts), local only.
 */
export const radios = ["HD-0001", "HD-0002", "HD-0003", "HD-0004", "HD-0005"].map((uid, i) => ({
  uid,
  orgId: "org_harbor",
  accountId: "acc_harbor_demo",
  brand: "Northwind",
  model: i < 3 ? "NW-400" : "NW-600",
  name: `Demo radio ${i + 1}`,
  secret: `demo-secret-${uid.toLowerCase()}`,
}));

/**
 * The demo fleets (issue 11): each demo account gets a few hundred radios, seats for them from
 * a "Demo radios" subscription of its organization, some never seen, some on old firmware.
 */
export const fleets = [
  { accountId: "acc_metro_bus", orgId: "org_metro", prefix: "MTA-BUS", count: 320, name: "Bus", tags: ["bus", "dispatch"] },
  { accountId: "acc_metro_rail", orgId: "org_metro", prefix: "MTA-RAIL", count: 240, name: "Rail crew", tags: ["rail"] },
  { accountId: "acc_lakeside_north", orgId: "org_lakeside", prefix: "LSD-N", count: 200, name: "Campus", tags: ["campus"] },
  { accountId: "acc_harbor_demo", orgId: "org_harbor", prefix: "HC-DEMO", count: 300, name: "Demo", tags: ["demo"] },
  { accountId: "acc_harbor_depot", orgId: "org_harbor", prefix: "HC-DEPOT", count: 220, name: "Depot", tags: ["depot"] },
  { accountId: "acc_harbor_field", orgId: "org_harbor", prefix: "HC-FIELD", count: 260, name: "Field crew", tags: ["field"] },
  { accountId: "acc_outsider_yard", orgId: "org_outsider", prefix: "OUT-YARD", count: 200, name: "Yard", tags: ["yard"] },
];
