import type { NetworkConfigView } from "@/schema/network-config";
import { type Inherited, type NetworkLevel, type NetworkPart, networkParts } from "@/schema/network-inheritance";
import type { Translate } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";

/**
 * One part of a network config as readable lines, for the inherited and effective summaries.
 * Secrets are never in a view; a line only says that one is set.
 */
export function partLines(t: Translate, part: NetworkPart, config: NetworkConfigView): string[] {
  const text = (key: string, values: Record<string, unknown> = {}) => String(t(key, values));
  switch (part) {
    case "wifi": {
      const networks = config.wifi ?? [];
      if (networks.length === 0) return [text("network.summary.noWifi")];
      return networks.map((network) =>
        [
          text("network.summary.wifi", {
            ssid: network.ssid,
            security: text(`accounts.network.securities.${network.security}`),
            priority: network.priority,
          }),
          ...(network.hasPassphrase ? [text("network.summary.passphraseSet")] : []),
        ].join(" · "),
      );
    }
    case "lte": {
      const lte = config.lte;
      if (!lte?.apn.trim()) return [text("network.summary.noApn")];
      return [
        [
          text("network.summary.apn", { apn: lte.apn }),
          ...(lte.username ? [text("network.summary.username", { username: lte.username })] : []),
          ...(lte.hasPassword ? [text("network.summary.passwordSet")] : []),
        ].join(" · "),
      ];
    }
    case "dnsServers":
    case "ntpServers": {
      const servers = config[part] ?? [];
      return servers.length ? [servers.join(", ")] : [text("network.summary.noServers")];
    }
    case "endpoints": {
      const endpoints = config.endpoints ?? [];
      return endpoints.length ? endpoints.map((e) => `${e.name} — ${e.url}`) : [text("network.summary.noEndpoints")];
    }
  }
}

/** Where a part comes from, seen from `here` (the level whose tab this is). */
export function sourceText(t: Translate, source: NetworkLevel | undefined, here: NetworkLevel): string {
  if (!source) return String(t("network.source.none"));
  return String(t(source === here ? "network.source.here" : `network.source.${source}`));
}

/**
 * The settings a level ends up with, part by part, and the level each part comes from: what the
 * radios there get once deployed.
 */
export function EffectiveSettings({ effective, here }: { effective: Inherited<NetworkConfigView>; here: NetworkLevel }) {
  const { t } = usePage();
  return (
    <section aria-labelledby="effective-heading" className="mb-8">
      <h2 id="effective-heading" className="text-lg font-semibold text-slate-900">
        {t("network.effective.heading")}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-600">{t(`network.effective.lead.${here}`)}</p>
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm" data-effective>
          <caption className="sr-only">{t("network.effective.heading")}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-4 py-2 text-left font-semibold text-slate-700">
                {t("network.effective.part")}
              </th>
              <th scope="col" className="px-4 py-2 text-left font-semibold text-slate-700">
                {t("network.effective.value")}
              </th>
              <th scope="col" className="px-4 py-2 text-left font-semibold text-slate-700">
                {t("network.effective.source")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {networkParts.map((part) => {
              const source = effective.sources[part];
              return (
                <tr key={part} data-part={part}>
                  <th scope="row" className="px-4 py-2 text-left align-top font-medium text-slate-800">
                    {t(`network.parts.${part}`)}
                  </th>
                  <td className="px-4 py-2 align-top text-slate-800">
                    {source ? (
                      partLines(t, part, effective.config).map((line) => <div key={line}>{line}</div>)
                    ) : (
                      <span className="text-slate-500">{t("network.summary.notSet")}</span>
                    )}
                  </td>
                  <td className="px-4 py-2 align-top text-slate-700" data-source={source ?? "none"}>
                    {sourceText(t, source, here)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
