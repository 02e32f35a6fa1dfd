// What the demo accounts hold, so a new user sees a working product the moment `npm start` is
// up (issue 9, §5): a transit authority's depots, garages and dispatch, a school district's
// schools and buses, each with network settings, profiles and the rules that assign them.
// Fixed ids keep the seed idempotent. Later issues add to each workspace (radios under
// `devices`, deployments…) and to scripts/seed-sql.mjs's workspaceStatements.
// Secrets here are demo values for the local database only.

const wifi = (id, ssid, security, priority, passphrase) => ({
  id,
  ssid,
  security,
  priority,
  ...(passphrase ? { passphrase } : {}),
});

const channel = (name, mhz, tone = "", power = "high") => ({
  name,
  rxMhz: mhz,
  txMhz: mhz,
  bandwidth: "12.5",
  tone,
  power,
  scan: true,
});

/** A rule's profiles are named by profile id, in order. */
export const workspaces = [
  {
    accountId: "acc_metro_bus",
    network: {
      wifi: [wifi("wifi_mta_ops", "MTA-Ops", "wpa2-personal", 1, "metro-ops-demo-2025")],
      lte: { apn: "mta.fleet.apn", username: "mta-radios", password: "demo-lte-password" },
      dnsServers: ["10.40.0.53", "10.40.1.53"],
      ntpServers: ["ntp.metrotransit.example"],
      endpoints: [{ name: "Dispatch server", url: "https://dispatch.metrotransit.example/radio" }],
    },
    sites: [
      {
        id: "site_mta_central",
        name: "Central Bus Depot",
        address: "1200 Transit Way, Springfield",
        network: { wifi: [wifi("wifi_mta_central", "MTA-Central-Depot", "wpa2-personal", 1, "central-depot-demo")] },
        locations: [
          { id: "loc_mta_central_bay", name: "Maintenance Bay", description: "Six service lanes and the tire shop." },
          { id: "loc_mta_central_fuel", name: "Fueling Lane", description: "" },
          { id: "loc_mta_central_yard", name: "Bus Yard", description: "Overnight parking for 140 buses." },
        ],
      },
      {
        id: "site_mta_north",
        name: "North Garage",
        address: "88 Lakeview Road, Springfield",
        locations: [
          { id: "loc_mta_north_pit", name: "Service Pit", description: "" },
          { id: "loc_mta_north_parts", name: "Parts Room", description: "" },
        ],
      },
      {
        id: "site_mta_south",
        name: "South Garage",
        address: "4020 Industrial Parkway, Springfield",
        locations: [
          { id: "loc_mta_south_wash", name: "Wash Bay", description: "" },
          { id: "loc_mta_south_office", name: "Yard Office", description: "" },
        ],
      },
      {
        id: "site_mta_dispatch",
        name: "Dispatch Center",
        address: "1 Civic Plaza, Springfield",
        network: { dnsServers: ["10.40.9.53"] },
        locations: [
          {
            id: "loc_mta_dispatch_floor",
            name: "Operations Floor",
            description: "Twelve dispatch consoles.",
            network: { wifi: [wifi("wifi_mta_dispatch", "MTA-Dispatch", "wpa3-personal", 1, "dispatch-floor-demo")] },
          },
          { id: "loc_mta_dispatch_sup", name: "Supervisor Office", description: "" },
        ],
      },
    ],
    profiles: [
      {
        id: "prf_mta_device",
        type: "device",
        name: "Bus operator radio",
        settings: {
          brightness: 4,
          backlight: "15",
          volumeMin: 4,
          volumeMax: 15,
          powerSave: "standard",
          gpsIntervalSeconds: 30,
          menuLanguage: "en",
        },
      },
      {
        id: "prf_mta_channels",
        type: "channels",
        name: "Bus operations UHF",
        settings: {
          band: "uhf",
          channels: [
            channel("Dispatch 1", 460.125, "100.0"),
            channel("Dispatch 2", 460.15, "100.0"),
            channel("Garages", 460.175, "D023N", "low"),
            channel("Emergency", 460.2, ""),
          ],
        },
      },
      {
        id: "prf_mta_contacts",
        type: "contacts",
        name: "Transit talk groups",
        settings: {
          contacts: [
            { name: "All buses", callType: "group", id: 1001 },
            { name: "Supervisors", callType: "group", id: 1002 },
            { name: "Maintenance", callType: "group", id: 1003 },
            { name: "Dispatch desk", callType: "private", id: 2001 },
          ],
        },
      },
      {
        id: "prf_mta_buttons",
        type: "buttons",
        name: "Operator buttons",
        settings: { side1: "gps-report", side2: "scan", top: "power-level", emergency: "emergency-alarm" },
      },
    ],
    rules: [
      {
        id: "rule_mta_all",
        name: "All bus radios",
        conditions: {},
        profileIds: ["prf_mta_device", "prf_mta_channels", "prf_mta_contacts", "prf_mta_buttons"],
      },
      {
        id: "rule_mta_dispatch",
        name: "Dispatch consoles",
        conditions: { siteIds: ["site_mta_dispatch"], tags: ["console"] },
        profileIds: ["prf_mta_contacts"],
      },
      {
        id: "rule_mta_garages",
        name: "Garage handhelds",
        conditions: { siteIds: ["site_mta_north", "site_mta_south"], models: ["NR-300"] },
        profileIds: ["prf_mta_channels"],
      },
    ],
    changes: [
      {
        id: "log_demo_mta_rule",
        actor: "usr_configurator",
        action: "create",
        entityType: "rule",
        entityId: "rule_mta_garages",
        entityLabel: "Garage handhelds",
        diff: { name: { after: "Garage handhelds" }, enabled: { after: true }, profiles: { after: ["Bus operations UHF"] } },
        at: "2025-06-02T14:05:00.000Z",
      },
    ],
  },
  {
    accountId: "acc_metro_rail",
    network: { ntpServers: ["ntp.metrotransit.example"], dnsServers: ["10.40.0.53"] },
    sites: [
      {
        id: "site_mtr_yard",
        name: "Rail Yard",
        address: "600 Junction Street, Springfield",
        locations: [
          { id: "loc_mtr_yard_shop", name: "Car Shop", description: "" },
          { id: "loc_mtr_yard_tower", name: "Yard Tower", description: "" },
        ],
      },
      {
        id: "site_mtr_signal",
        name: "Signal Shop",
        address: "610 Junction Street, Springfield",
        locations: [{ id: "loc_mtr_signal_bench", name: "Test Bench", description: "" }],
      },
    ],
    profiles: [
      {
        id: "prf_mtr_channels",
        type: "channels",
        name: "Maintenance UHF",
        settings: { band: "uhf", channels: [channel("Yard", 452.9, "127.3"), channel("Signals", 452.925, "127.3")] },
      },
    ],
    rules: [{ id: "rule_mtr_all", name: "All maintenance radios", conditions: {}, profileIds: ["prf_mtr_channels"] }],
    changes: [],
  },
  {
    accountId: "acc_lakeside_north",
    network: {
      wifi: [
        wifi("wifi_lsd_staff", "LSD-Staff", "wpa2-enterprise", 1),
        wifi("wifi_lsd_radio", "LSD-Radios", "wpa2-personal", 2, "lakeside-radios-demo"),
      ],
      dnsServers: ["172.16.0.10"],
      ntpServers: ["time.lakeside-schools.example"],
      endpoints: [{ name: "Campus safety", url: "https://safety.lakeside-schools.example/radio" }],
    },
    sites: [
      {
        id: "site_lsd_high",
        name: "Lakeside High School",
        address: "500 Lakeshore Drive, Lakeside",
        locations: [
          { id: "loc_lsd_high_office", name: "Front Office", description: "" },
          { id: "loc_lsd_high_gym", name: "Gymnasium", description: "" },
          { id: "loc_lsd_high_nurse", name: "Nurse's Office", description: "" },
        ],
      },
      {
        id: "site_lsd_middle",
        name: "North Middle School",
        address: "75 Birch Avenue, Lakeside",
        locations: [
          { id: "loc_lsd_middle_office", name: "Front Office", description: "" },
          { id: "loc_lsd_middle_field", name: "Sports Field", description: "" },
        ],
      },
      {
        id: "site_lsd_pine",
        name: "Pine Elementary",
        address: "12 Pine Street, Lakeside",
        locations: [{ id: "loc_lsd_pine_office", name: "Front Office", description: "" }],
      },
      {
        id: "site_lsd_buses",
        name: "Bus Garage",
        address: "900 County Road 4, Lakeside",
        network: { wifi: [wifi("wifi_lsd_garage", "LSD-Garage", "wpa2-personal", 1, "bus-garage-demo")] },
        locations: [
          { id: "loc_lsd_buses_lot", name: "Bus Lot", description: "42 school buses." },
          { id: "loc_lsd_buses_shop", name: "Mechanic Shop", description: "" },
        ],
      },
    ],
    profiles: [
      {
        id: "prf_lsd_device",
        type: "device",
        name: "Staff handheld",
        settings: {
          brightness: 3,
          backlight: "10",
          volumeMin: 2,
          volumeMax: 12,
          powerSave: "extended",
          gpsIntervalSeconds: 0,
          menuLanguage: "en",
        },
      },
      {
        id: "prf_lsd_channels",
        type: "channels",
        name: "Campus VHF",
        settings: {
          band: "vhf",
          channels: [channel("Campus", 151.625, "88.5"), channel("Buses", 151.7, "88.5"), channel("Safety", 151.775, "")],
        },
      },
      {
        id: "prf_lsd_contacts",
        type: "contacts",
        name: "School talk groups",
        settings: {
          contacts: [
            { name: "All staff", callType: "group", id: 3001 },
            { name: "Principals", callType: "group", id: 3002 },
            { name: "Bus drivers", callType: "group", id: 3003 },
          ],
        },
      },
      {
        id: "prf_lsd_buttons",
        type: "buttons",
        name: "Bus driver buttons",
        settings: { side1: "emergency-alarm", side2: "gps-report", top: "none", emergency: "emergency-alarm" },
      },
    ],
    rules: [
      {
        id: "rule_lsd_buses",
        name: "School buses",
        conditions: { siteIds: ["site_lsd_buses"], tags: ["bus"] },
        profileIds: ["prf_lsd_buttons", "prf_lsd_channels", "prf_lsd_contacts"],
      },
      {
        id: "rule_lsd_staff",
        name: "All staff radios",
        conditions: {},
        profileIds: ["prf_lsd_device", "prf_lsd_channels", "prf_lsd_contacts"],
      },
    ],
    changes: [
      {
        id: "log_demo_lsd_network",
        actor: "usr_admin",
        action: "update",
        entityType: "site",
        entityId: "site_lsd_buses",
        entityLabel: "Bus Garage",
        diff: {
          wifi: {
            before: [],
            after: [{ id: "wifi_lsd_garage", ssid: "LSD-Garage", security: "wpa2-personal", priority: 1, hasPassphrase: true }],
          },
        },
        at: "2025-08-20T15:30:00.000Z",
      },
    ],
  },
];
