/** The interface languages (spec §3, §9). The first is the fallback. */
export const languages = ["en", "es-MX", "fr-CA", "pt-BR"] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = "en";

/** Each language's own name, as the language menu shows it (spec §3). */
export const languageNames: Record<Language, string> = {
  en: "English",
  "es-MX": "español - México",
  "fr-CA": "français - Canada",
  "pt-BR": "português - Brasil",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (languages as readonly string[]).includes(value);
}

/**
 * The best supported language for an Accept-Language header: exact tags first, then the
 * primary subtag ("es" or "es-ES" → es-MX), in the order of the header's q-values.
 */
export function negotiateLanguage(header: string | null | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const exact = languages.find((lng) => lng.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split("-")[0];
    const byPrimary = languages.find((lng) => lng.split("-")[0]?.toLowerCase() === primary);
    if (byPrimary) return byPrimary;
  }
  return undefined;
}
