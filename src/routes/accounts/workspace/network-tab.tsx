import type { NetworkInheritance } from "@/islands/network-config-form.island";
import { Island } from "@/islands/runtime/island";
import type { ActionResult, FormState, RouteContext } from "@/routes/types";
import type { NetworkConfigInput } from "@/schema/network-config";
import { type NetworkLevel, type NetworkPart, networkParts, setsPart } from "@/schema/network-inheritance";
import type { NetworkAtLevel } from "@/server/api/network-levels";
import { newId } from "@/server/data/db";
import { usePage } from "@/server/render/page-context";
import { postedValues, refusal, translatedErrors } from "../form-errors";
import {
  type AddIntent,
  configFromValues,
  fieldOfIssue,
  modelFromValues,
  modelFromView,
  type PostedConfig,
} from "../network-form";
import { EffectiveSettings, partLines } from "./network-summary";

/**
 * The Network tab of a site or a location: the account's network form (one island for every
 * level), where each part either inherits from the levels above or is overridden here.
 */
const addIntents = new Set<string>(["addWifi", "addEndpoint"]);

/** The parts whose "override" box was ticked in a post. */
export function overriddenParts(values: Record<string, string>): Set<NetworkPart> {
  return new Set(networkParts.filter((part) => values[`override.${part}`] !== undefined));
}

/** An empty value of each part: overriding with it means "none here" (no Wi-Fi, no DNS servers…). */
const emptyPart: { [P in NetworkPart]-?: NonNullable<NetworkConfigInput[P]> } = {
  wifi: [],
  lte: { apn: "" },
  dnsServers: [],
  ntpServers: [],
  endpoints: [],
};

/**
 * What a level's form asks to store: exactly the ticked parts (an empty one included, as an
 * override with nothing); unticked parts are left out, so they inherit.
 */
export function levelConfigFromValues(values: Record<string, string>, makeId: () => string): PostedConfig {
  const posted = configFromValues(values, makeId);
  const overrides = overriddenParts(values);
  const config: Record<string, unknown> = {};
  for (const part of networkParts) {
    if (overrides.has(part)) config[part] = posted.config[part] ?? emptyPart[part];
  }
  const keep = (part: "wifi" | "endpoints", rows: number[]) => (overrides.has(part) ? rows : []);
  return {
    config: config as NetworkConfigInput,
    wifiRows: keep("wifi", posted.wifiRows),
    endpointRows: keep("endpoints", posted.endpointRows),
  };
}

function inheritanceProps(
  t: ReturnType<typeof usePage>["t"],
  here: NetworkLevel,
  network: NetworkAtLevel,
  posted: Record<string, string> | undefined,
): NetworkInheritance {
  const ticked = posted ? overriddenParts(posted) : null;
  const parts = Object.fromEntries(
    networkParts.map((part) => {
      const source = network.inherited.sources[part];
      return [
        part,
        {
          override: ticked ? ticked.has(part) : setsPart(network.config, part),
          label: String(t(`network.inherit.override.${here}`, { part: String(t(`network.parts.${part}`)) })),
          inherited: String(t(source ? `network.inherit.from.${source}` : "network.inherit.notSet")),
          lines: source ? partLines(t, part, network.inherited.config) : [],
        },
      ];
    }),
  ) as NetworkInheritance["parts"];
  return { parts, hint: String(t("network.inherit.hint")) };
}

/** The tab's content: what the level ends up with, then the form of what it overrides. */
export function LevelNetwork({
  here,
  href,
  network,
  form,
}: {
  here: Exclude<NetworkLevel, "account">;
  href: string;
  network: NetworkAtLevel;
  form?: FormState;
}) {
  const { t } = usePage();
  const values = form?.values;
  // Shown again after a post: what was typed (and one more row if asked); else what is stored.
  const model = values
    ? modelFromValues(values, network.config, addIntents.has(values.intent ?? "") ? (values.intent as AddIntent) : undefined)
    : modelFromView(network.version, network.config);
  return (
    <>
      <p className="mb-6 max-w-3xl text-sm text-slate-700">{t(`network.inherit.lead.${here}`)}</p>
      <EffectiveSettings effective={network.effective} here={here} />
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{t(`network.overridesHeading.${here}`)}</h2>
      <Island
        name="network-config-form"
        props={{
          action: href,
          reloadHref: href,
          model,
          errors: translatedErrors(form?.errors, t),
          inheritance: inheritanceProps(t, here, network, values),
        }}
      />
    </>
  );
}

/**
 * Saves what the level overrides, on the version it was typed on. "Add another" (without
 * JavaScript) saves nothing: the form comes back with what was typed and one more row.
 */
export async function saveLevelNetwork(
  c: RouteContext,
  href: string,
  save: (version: number, config: NetworkConfigInput) => Promise<unknown>,
): Promise<ActionResult> {
  const values = await postedValues(c);
  if (addIntents.has(values.intent ?? "")) return { ok: false, status: 200, form: { values, errors: {} } };
  const posted = levelConfigFromValues(values, () => newId("wifi"));
  try {
    await save(Number(values.version), posted.config);
  } catch (error) {
    return refusal(error, values, { fieldOf: (path) => fieldOfIssue(path, posted) });
  }
  return { ok: true, redirect: href, flash: { type: "success", key: "accounts.networkSaved" } };
}
