import manifest from "virtual:client-manifest";

/** The source files the client build starts from (vite.config.ts lists the same two). */
export const clientEntrySource = "src/islands/runtime/client.ts";
export const stylesSource = "src/ui/styles.css";

export type AssetTags = {
  stylesheets: string[];
  /** The island bootstrap module; only pages with islands load it. */
  entryScript: string;
  /** Vite's own client, for hot reload in development. */
  devClient: string | null;
  /** Chunks to preload for the given islands, so a slow network pays one round trip, not three. */
  preloadsFor(islandNames: Iterable<string>): string[];
};

function chunkClosure(start: string[]): string[] {
  if (!manifest) return [];
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest?.[key];
    if (!chunk) return;
    files.push(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of start) visit(key);
  return files;
}

const built: AssetTags | null = manifest
  ? {
      stylesheets: [`/${manifest[stylesSource]?.file ?? "missing-styles.css"}`],
      entryScript: `/${manifest[clientEntrySource]?.file ?? "missing-entry.js"}`,
      devClient: null,
      preloadsFor: (names) => {
        const entry = `/${manifest?.[clientEntrySource]?.file}`;
        const islands = [...names].map((name) => `src/islands/${name}.island.tsx`);
        return chunkClosure([clientEntrySource, ...islands]).filter((file) => file !== entry);
      },
    }
  : null;

const development: AssetTags = {
  stylesheets: [`/${stylesSource}`],
  entryScript: `/${clientEntrySource}`,
  devClient: "/@vite/client",
  preloadsFor: () => [],
};

/** Where the browser finds our CSS and scripts: hashed files after a build, sources in dev. */
export const assetTags: AssetTags = built ?? development;
