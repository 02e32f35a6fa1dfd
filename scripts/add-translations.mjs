// Merges translations into locales/<lng>/<namespace>.json for all four languages at once.
// Usage: node scripts/add-translations.mjs file.json [namespace]
// where file.json is { "some.key": { "en": "…", "es-MX": "…", "fr-CA": "…", "pt-BR": "…" }, … }.
// Keys are dotted paths; existing keys are overwritten, others are kept; output is sorted.
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const languages = ["en", "es-MX", "fr-CA", "pt-BR"];
const [file, namespace = "default"] = process.argv.slice(2);
if (!file) throw new Error("usage: node scripts/add-translations.mjs file.json [namespace]");
const additions = JSON.parse(readFileSync(file, "utf8"));

function sorted(value) {
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted(value[k])]),
  );
}

for (const lng of languages) {
  const path = `locales/${lng}/${namespace}.json`;
  const tree = JSON.parse(readFileSync(path, "utf8"));
  for (const [key, texts] of Object.entries(additions)) {
    const text = texts[lng];
    if (typeof text !== "string") throw new Error(`${key} has no ${lng} text`);
    const parts = key.split(".");
    let node = tree;
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts.at(-1)] = text;
  }
  writeFileSync(`${path}.tmp`, `${JSON.stringify(sorted(tree), null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
console.log(`added ${Object.keys(additions).length} keys to ${languages.length} languages (${namespace})`);
