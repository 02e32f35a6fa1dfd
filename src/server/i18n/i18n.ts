import i18next, { type TFunction } from "i18next";
import { fallbackLanguage, type Language, languages } from "@/schema/languages";

/** Every locales/<lng>/<ns>.json, bundled into the Worker. */
const files = import.meta.glob<Record<string, unknown>>("../../../locales/*/*.json", {
  eager: true,
  import: "default",
});

type Resources = Record<string, Record<string, Record<string, unknown>>>;

function resourcesFromFiles(): Resources {
  const resources: Resources = {};
  for (const [path, content] of Object.entries(files)) {
    const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, lng = "", ns = ""] = match;
    resources[lng] ??= {};
    resources[lng][ns] = content;
  }
  return resources;
}

/** The namespaces found in locales/: the brand's (whose name the settings give) and "default". */
export const namespaces = [
  ...new Set(
    Object.keys(files).map(
      (p) =>
        p
          .split("/")
          .at(-1)
          ?.replace(/\.json$/, "") ?? "",
    ),
  ),
];

// One instance per isolate; resources are bundled, so it initializes synchronously.
const instance = i18next.createInstance();
void instance.init({
  resources: resourcesFromFiles(),
  supportedLngs: [...languages],
  fallbackLng: fallbackLanguage,
  ns: namespaces,
  defaultNS: "default",
  initAsync: false,
  returnNull: false,
  interpolation: { escapeValue: false }, // React escapes what it renders
  saveMissing: true,
  missingKeyHandler: (lngs, ns, key) => {
    // Spec §8: a missing translation key is logged only.
    console.warn(`i18n: missing key "${ns}:${key}" for ${lngs.join(", ")}`);
  },
});

export type Translate = TFunction;

const translators = new Map<string, Translate>();
const MEMO_LIMIT = 5_000;

/**
 * A translator for one language that looks in the brand's namespace first and then in
 * "default", so a vendor overrides any string by adding it to its own namespace. One per
 * language and brand for the isolate; a key asked without options is looked up once (a page
 * asks for a hundred strings, mostly the same on every page, and i18next resolves each anew).
 */
export function translatorFor(language: Language, brandNamespace: string): Translate {
  const id = `${language} ${brandNamespace}`;
  let translate = translators.get(id);
  if (!translate) {
    const fixed = instance.getFixedT(language, [brandNamespace, "default"]) as unknown as (...args: unknown[]) => unknown;
    const plain = new Map<string, unknown>();
    const memoized = (key: unknown, ...rest: unknown[]) => {
      if (rest.length > 0 || typeof key !== "string") return fixed(key, ...rest);
      let text = plain.get(key);
      if (text === undefined) {
        text = fixed(key);
        // Keys come from our code; the bound only keeps a stray computed key from growing the memo.
        if (plain.size < MEMO_LIMIT) plain.set(key, text);
      }
      return text;
    };
    translate = memoized as unknown as Translate;
    translators.set(id, translate);
  }
  return translate;
}

/** The strings an island declares, in one language, for its `messages` prop. */
export function pickMessages(t: Translate, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, String(t(key))]));
}

/** True when the key exists in the language or its fallback (used by tests of the locale files). */
export function hasTranslation(language: Language, key: string, brandNamespace: string): boolean {
  return instance.exists(key, { lng: language, ns: [brandNamespace, "default"] });
}
