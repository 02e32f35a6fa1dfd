import type { NetworkConfigInput, NetworkConfigView } from "@/schema/network-config";
import { networkLimits, type WifiSecurity, wifiSecurity } from "@/schema/network-rules";

/**
 * The network settings form as rows of fields, between what is stored (a config view), what
 * was posted (flat names such as `wifi.0.ssid`) and what accounts.updateNetworkConfig takes.
 * Secrets never come from what is stored: a row only knows whether one is set.
 */
export type WifiRow = {
  /** React's key for the row; not posted. */
  key: string;
  /** The network's stable id (empty for a new row; the server gives it one on save). */
  id: string;
  ssid: string;
  security: WifiSecurity;
  /** What the user typed in this post; never a stored passphrase. */
  passphrase: string;
  priority: string;
  hasPassphrase: boolean;
  remove: boolean;
};

export type EndpointRow = { key: string; name: string; url: string; remove: boolean };

export type NetworkFormModel = {
  version: string;
  wifi: WifiRow[];
  lte: { apn: string; username: string; password: string; hasPassword: boolean };
  dnsServers: string;
  ntpServers: string;
  endpoints: EndpointRow[];
};

export type AddIntent = "addWifi" | "addEndpoint";

export function emptyWifiRow(key: string): WifiRow {
  return { key, id: "", ssid: "", security: "wpa2-personal", passphrase: "", priority: "", hasPassphrase: false, remove: false };
}

export function emptyEndpointRow(key: string): EndpointRow {
  return { key, name: "", url: "", remove: false };
}

/** One empty row after the stored ones, so a form without JavaScript can add one at a time. */
function withEmptyRows(model: NetworkFormModel): NetworkFormModel {
  const wifi =
    model.wifi.length < networkLimits.wifiNetworks ? [...model.wifi, emptyWifiRow(`w${model.wifi.length}`)] : model.wifi;
  const endpoints =
    model.endpoints.length < networkLimits.endpoints
      ? [...model.endpoints, emptyEndpointRow(`e${model.endpoints.length}`)]
      : model.endpoints;
  return { ...model, wifi, endpoints };
}

/** The form for what is stored. */
export function modelFromView(version: number, view: NetworkConfigView): NetworkFormModel {
  return withEmptyRows({
    version: String(version),
    wifi: (view.wifi ?? []).map((network, index) => ({
      key: `w${index}`,
      id: network.id,
      ssid: network.ssid,
      security: network.security,
      passphrase: "",
      priority: String(network.priority),
      hasPassphrase: network.hasPassphrase,
      remove: false,
    })),
    lte: {
      apn: view.lte?.apn ?? "",
      username: view.lte?.username ?? "",
      password: "",
      hasPassword: view.lte?.hasPassword ?? false,
    },
    dnsServers: (view.dnsServers ?? []).join("\n"),
    ntpServers: (view.ntpServers ?? []).join("\n"),
    endpoints: (view.endpoints ?? []).map((endpoint, index) => ({ key: `e${index}`, ...endpoint, remove: false })),
  });
}

/** The row numbers posted under `prefix.<n>.`, in order. */
function rowIndexes(values: Record<string, string>, prefix: string): number[] {
  const pattern = new RegExp(`^${prefix}\\.(\\d+)\\.`);
  const found = new Set<number>();
  for (const name of Object.keys(values)) {
    const match = pattern.exec(name);
    if (match) found.add(Number(match[1]));
  }
  return [...found].sort((a, b) => a - b).filter((n) => n < 50);
}

function securityOf(value: string | undefined): WifiSecurity {
  return wifiSecurity.includes(value as WifiSecurity) ? (value as WifiSecurity) : "wpa2-personal";
}

/** The form as it was posted (to show it again with what was typed), plus a row if asked. */
export function modelFromValues(values: Record<string, string>, stored: NetworkConfigView, add?: AddIntent): NetworkFormModel {
  const v = (name: string) => values[name] ?? "";
  const wifi = rowIndexes(values, "wifi").map((n, position) => {
    const id = v(`wifi.${n}.id`);
    return {
      key: `w${position}`,
      id,
      ssid: v(`wifi.${n}.ssid`),
      security: securityOf(values[`wifi.${n}.security`]),
      passphrase: v(`wifi.${n}.passphrase`),
      priority: v(`wifi.${n}.priority`),
      hasPassphrase: Boolean(id && stored.wifi?.find((network) => network.id === id)?.hasPassphrase),
      remove: values[`wifi.${n}.remove`] !== undefined,
    };
  });
  const endpoints = rowIndexes(values, "endpoints").map((n, position) => ({
    key: `e${position}`,
    name: v(`endpoints.${n}.name`),
    url: v(`endpoints.${n}.url`),
    remove: values[`endpoints.${n}.remove`] !== undefined,
  }));
  if (add === "addWifi" && wifi.length < networkLimits.wifiNetworks) wifi.push(emptyWifiRow(`w${wifi.length}`));
  if (add === "addEndpoint" && endpoints.length < networkLimits.endpoints)
    endpoints.push(emptyEndpointRow(`e${endpoints.length}`));
  return {
    version: v("version"),
    wifi,
    lte: {
      apn: v("lte.apn"),
      username: v("lte.username"),
      password: v("lte.password"),
      hasPassword: stored.lte?.hasPassword ?? false,
    },
    dnsServers: v("dnsServers"),
    ntpServers: v("ntpServers"),
    endpoints,
  };
}

function serverList(text: string): string[] | undefined {
  const servers = text
    .split(/[\s,]+/)
    .map((server) => server.trim())
    .filter(Boolean);
  return servers.length ? servers : undefined;
}

/** A priority as typed: blank is 0; anything else goes to the schema as it is (NaN is refused there). */
function priorityOf(text: string): number {
  return text.trim() === "" ? 0 : Number(text);
}

export type PostedConfig = {
  config: NetworkConfigInput;
  /** For each Wi-Fi network of `config`, the number of the form row it came from. */
  wifiRows: number[];
  endpointRows: number[];
};

/**
 * What the form asks to store. Blank rows (the empty row left as it was) and rows marked for
 * removal are left out; a new network gets its id here.
 */
export function configFromValues(values: Record<string, string>, newId: () => string): PostedConfig {
  const v = (name: string) => values[name] ?? "";
  const wifiRows: number[] = [];
  const wifi = rowIndexes(values, "wifi").flatMap((n) => {
    const row = (field: string) => v(`wifi.${n}.${field}`);
    if (values[`wifi.${n}.remove`] !== undefined) return [];
    if (!row("id") && !row("ssid").trim() && !row("passphrase")) return [];
    wifiRows.push(n);
    return [
      {
        id: row("id") || newId(),
        ssid: row("ssid"),
        security: securityOf(values[`wifi.${n}.security`]),
        passphrase: row("passphrase") || undefined,
        priority: priorityOf(row("priority")),
      },
    ];
  });
  const endpointRows: number[] = [];
  const endpoints = rowIndexes(values, "endpoints").flatMap((n) => {
    const name = v(`endpoints.${n}.name`);
    const url = v(`endpoints.${n}.url`);
    if (values[`endpoints.${n}.remove`] !== undefined || (!name.trim() && !url.trim())) return [];
    endpointRows.push(n);
    return [{ name, url }];
  });
  const lte = { apn: v("lte.apn"), username: v("lte.username"), password: v("lte.password") };
  const hasLte = lte.apn.trim() || lte.username || lte.password;
  const config: NetworkConfigInput = {
    ...(wifi.length ? { wifi } : {}),
    ...(hasLte ? { lte: { apn: lte.apn, username: lte.username || undefined, password: lte.password || undefined } } : {}),
    ...(serverList(v("dnsServers")) ? { dnsServers: serverList(v("dnsServers")) } : {}),
    ...(serverList(v("ntpServers")) ? { ntpServers: serverList(v("ntpServers")) } : {}),
    ...(endpoints.length ? { endpoints } : {}),
  };
  return { config, wifiRows, endpointRows };
}

/** The form field an issue of accounts.updateNetworkConfig's input is about. */
export function fieldOfIssue(path: PropertyKey[], posted: PostedConfig): string {
  const [root, part, index, field] = path;
  if (root !== "config") return "form";
  if ((part === "wifi" || part === "endpoints") && typeof index === "number") {
    const row = (part === "wifi" ? posted.wifiRows : posted.endpointRows)[index];
    return row === undefined ? part : field === undefined ? part : `${part}.${row}.${String(field)}`;
  }
  if (part === "lte") return index === undefined ? "lte.apn" : `lte.${String(index)}`;
  if (part === "dnsServers" || part === "ntpServers" || part === "wifi" || part === "endpoints") return part;
  return "form";
}
