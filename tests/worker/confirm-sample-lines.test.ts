import { describe, expect, it } from "vitest";
import { sampleLines } from "@/routes/deployments/sample-lines";
import { configDiff } from "@/schema/fleet/desired-config";
import { translatorFor } from "@/server/i18n/i18n";
import { diffWords, textOf } from "@/ui/activity/activity-entry";

// The confirm page's per-radio difference uses the change list's labels, not raw paths (issue 23).

const before = {
  network: { wifi: [{ ssid: "Old", security: "open", priority: 1 }] },
  networkSources: { wifi: "account" },
  profiles: {},
};
const after = {
  network: { wifi: [{ ssid: "New", security: "wpa2-personal", priority: 1 }] },
  networkSources: { wifi: "site" },
  profiles: { device: { id: "prf_1", name: "Quiet", rule: "All radios", settings: { gpsEnabled: true } } },
};

function lines(language: "en" | "fr-CA") {
  const text = textOf(translatorFor(language, "northwind"));
  return sampleLines(configDiff(before, after), diffWords(text, language), text);
}

describe("the confirm page's difference for a radio", () => {
  it("names each setting and coded value as the change list does", () => {
    const shown = lines("en");
    expect(shown).toContainEqual({
      field: "Wi-Fi networks › Wi-Fi network 1 › Network name (SSID)",
      before: "Old",
      after: "New",
    });
    expect(shown).toContainEqual({
      field: "Wi-Fi networks › Wi-Fi network 1 › Security",
      before: "Open (no passphrase)",
      after: "WPA2-Personal",
    });
    expect(shown).toContainEqual({ field: "Wi-Fi networks › Where it is set", before: "the account", after: "the site" });
    expect(shown).toContainEqual({ field: "Device settings › Name", before: null, after: "Quiet" });
    expect(shown.map((line) => line.field).join("\n")).not.toMatch(/network\.|\.0\.|profiles\./);
  });

  it("speaks the reader's language", () => {
    const shown = lines("fr-CA").map((line) => line.field);
    expect(shown.some((field) => field.startsWith("Réseaux Wi-Fi"))).toBe(true);
  });
});
