import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { firstDayOfWeek, formatDate, formatNumber } from "@/schema/format";
import { type Language, languages, negotiateLanguage } from "@/schema/languages";
import { translatorFor } from "@/server/i18n/i18n";
import { createUser, sessionCookie } from "./fixtures";
import { cookieFrom, postForm, request } from "./helpers";

const files = import.meta.glob<Record<string, unknown>>("../../locales/*/*.json", { eager: true, import: "default" });

function flatten(value: unknown, prefix = ""): Record<string, string> {
  if (typeof value !== "object" || value === null) return { [prefix.slice(0, -1)]: String(value) };
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => flatten(v, `${prefix}${k}.`)));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? "").sort();
}

describe("languages", () => {
  it.each([
    ["fr-CA,fr;q=0.9,en;q=0.8", "fr-CA"],
    ["es-ES,es;q=0.9", "es-MX"],
    ["pt", "pt-BR"],
    ["de-DE,en-US;q=0.5", "en"],
    ["de-DE", undefined],
    ["en;q=0.2, pt-BR;q=0.9", "pt-BR"],
    ["", undefined],
  ])("negotiates %j to %s", (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });

  it("uses Accept-Language when nothing is remembered, and says so in <html lang>", async () => {
    const html = await (await request("/", { headers: { "Accept-Language": "pt-BR,pt;q=0.9" } })).text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("Entrar");
  });

  it("prefers the remembered choice over Accept-Language", async () => {
    const html = await (await request("/", { headers: { Cookie: "lang=es-MX", "Accept-Language": "fr-CA" } })).text();
    expect(html).toContain('<html lang="es-MX">');
  });

  it("ignores a remembered value that is not a supported language", async () => {
    const html = await (await request("/", { headers: { Cookie: "lang=xx" } })).text();
    expect(html).toContain('<html lang="en">');
  });

  it("remembers a chosen language and returns to the page it was chosen on", async () => {
    const response = await postForm("/language", { language: "fr-CA", next: "/forgot-password" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/forgot-password");
    expect(cookieFrom(response, "lang")).toBe("fr-CA");
    const page = await request("/forgot-password", { headers: { Cookie: `lang=${cookieFrom(response, "lang")}` } });
    expect(await page.text()).toContain('<html lang="fr-CA">');
  });

  it("remembers a signed-in user's choice with the user: another browser gets it back", async () => {
    const user = await createUser({ role: "viewer" });
    const firstBrowser = await sessionCookie(user.email);
    const chosen = await postForm("/language", { language: "pt-BR", next: "/welcome" }, { Cookie: firstBrowser });
    expect(chosen.status).toBe(303);
    const stored = await env.DB.prepare("SELECT language FROM users WHERE id = ?").bind(user.id).first();
    expect(stored).toEqual({ language: "pt-BR" });
    // Another browser: a new session, no language cookie, an English Accept-Language.
    const otherBrowser = await sessionCookie(user.email);
    const html = await (await request("/welcome", { headers: { Cookie: otherBrowser, "Accept-Language": "en-US" } })).text();
    expect(html).toContain('<html lang="pt-BR">');
    // A choice made while signed out stays with that browser only.
    await postForm("/language", { language: "fr-CA", next: "/" });
    expect(await env.DB.prepare("SELECT language FROM users WHERE id = ?").bind(user.id).first()).toEqual({ language: "pt-BR" });
  });

  it("refuses an unsupported language with 400 and sets nothing", async () => {
    const response = await postForm("/language", { language: "de-DE", next: "/" });
    expect(response.status).toBe(400);
    expect(cookieFrom(response, "lang")).toBeUndefined();
  });

  it.each(["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"])(
    "never redirects off the site (next=%s)",
    async (next) => {
      const response = await postForm("/language", { language: "en", next });
      expect(response.headers.get("location")).toBe("/");
    },
  );

  it("refuses a form posted from another site (CSRF)", async () => {
    const response = await postForm("/language", { language: "en" }, { Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(cookieFrom(response, "lang")).toBeUndefined();
  });
});

describe("plurals", () => {
  it.each<[Language, string, string]>([
    ["en", "1 seat of Fleet allocated to Yard.", "2 seats of Fleet allocated to Yard."],
    ["es-MX", "Se asignó 1 licencia de Fleet a Yard.", "Se asignaron 2 licencias de Fleet a Yard."],
    ["fr-CA", "1 licence de Fleet attribuée à Yard.", "2 licences de Fleet attribuées à Yard."],
    ["pt-BR", "1 licença de Fleet alocada a Yard.", "2 licenças de Fleet alocadas a Yard."],
  ])("counts seats in %s through i18next: one, then several", (language, one, two) => {
    const t = translatorFor(language, "northwind");
    const say = (count: number) =>
      String(t("subscriptions.allocated", { count, seats: String(count), plan: "Fleet", account: "Yard" }));
    expect(say(1)).toBe(one);
    expect(say(2)).toBe(two);
    expect(say(1_000_000)).toContain("1000000");
  });
});

describe("pt-BR words for places", () => {
  it("says Sites for sites and Locais for locations, never one word for both", () => {
    const t = translatorFor("pt-BR", "northwind");
    expect(String(t("accountShell.nav.sites"))).toBe("Sites");
    expect(String(t("accountShell.nav.locations"))).toBe("Locais");
    expect(String(t("rules.form.sites"))).toBe("Sites");
    expect(String(t("rules.form.locations"))).toBe("Locais");
    expect(String(t("rules.summary.sites", { values: "A" }))).toBe("Sites: A");
    expect(String(t("rules.summary.locations", { values: "B" }))).toBe("Locais: B");
  });
});

describe("locale files", () => {
  const byLanguage = new Map<string, Record<string, string>>();
  for (const [path, content] of Object.entries(files)) {
    const [, lng = "", ns = ""] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
    const flat = Object.fromEntries(Object.entries(flatten(content)).map(([k, v]) => [`${ns}:${k}`, v]));
    byLanguage.set(lng, { ...byLanguage.get(lng), ...flat });
  }
  const english = byLanguage.get("en") ?? {};

  it("exist for every language", () => {
    expect([...byLanguage.keys()].sort()).toEqual([...languages].sort());
  });

  it.each(languages.filter((l) => l !== "en"))("%s has every English key, with the same placeholders", (lng) => {
    const translated = byLanguage.get(lng) ?? {};
    expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      expect(placeholders(translated[key] ?? ""), `${lng} ${key}`).toEqual(placeholders(text));
    }
  });
});

describe("formatting", () => {
  it("formats numbers and dates in the user's language through Intl", () => {
    expect(formatNumber("en", 12345.5)).toBe("12,345.5");
    expect(formatNumber("pt-BR", 12345.5)).toBe("12.345,5");
    expect(formatDate("es-MX", "2025-03-04T12:00:00Z", { dateStyle: "long", timeZone: "UTC" })).toBe("4 de marzo de 2025");
  });

  it("starts English weeks on Sunday and Spanish ones on Monday (spec §9)", () => {
    expect(firstDayOfWeek.en).toBe(0);
    expect(firstDayOfWeek["es-MX"]).toBe(1);
  });
});
