import manifest from "virtual:client-manifest";

/** The source files the client build starts from (vite.config.ts lists the same). */
export const clientEntrySource = "src/islands/runtime/client.ts";
export const shellSource = "src/shell/shell.ts";
export const toasterSource = "src/shell/toaster.tsx";
export const switcherPanelSource = "src/shell/switcher-panel.ts";
export const signInScriptSource = "src/enhance/sign-in.ts";
export const webAuthnSource = "src/islands/webauthn.ts";
/** Plain scripts of pages without a form (no React): a deployment's live counts, the activity log's "Load more". */
export const liveCountsSource = "src/enhance/live-counts.ts";
export const moreEntriesSource = "src/enhance/more-entries.ts";
/** The firmware upload form's script: the file in parts with progress and resume (issue 26). */
export const firmwareUploadSource = "src/enhance/firmware-upload.ts";
/** The new API token's copy button (issue 27). */
export const copySecretSource = "src/enhance/copy-secret.ts";

/** A plain script and the chunks it imports, to preload (one round trip on a slow network, not two). */
export type PlainScript = { src: string; preloads: string[] };

export type AssetTags = {
  /** The island bootstrap module; only pages with islands (forms) load it. */
  entryScript: string;
  /** The shell's one small plain script (menus, switcher, idle timer, toasts), on every page. */
  shellScript: string;
  /** What the shell loads on demand (the toaster with the first toast, the switcher's search). */
  shellModules: { toaster: string; switcherPanel: string; webAuthn: string };
  /** The toaster's stylesheet (sonner's CSS), linked when the toaster loads; null in dev (Vite injects it). */
  toasterStyles: string | null;
  /** The sign-in page's plain script (no React) and the chunks it imports, to preload. */
  signInScript: { src: string; preloads: string[] };
  /** Plain scripts a page without a form links itself, where their markup is (each a few hundred bytes). */
  plainScripts: { liveCounts: PlainScript; moreEntries: PlainScript; firmwareUpload: PlainScript; copySecret: PlainScript };
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

const fileOf = (source: string) => `/${manifest?.[source]?.file ?? `missing-${source}`}`;

const plainScript = (source: string): PlainScript => ({
  src: fileOf(source),
  preloads: chunkClosure([source]).filter((file) => file !== fileOf(source)),
});

const built: AssetTags | null = manifest
  ? {
      entryScript: fileOf(clientEntrySource),
      shellScript: fileOf(shellSource),
      shellModules: {
        toaster: fileOf(toasterSource),
        switcherPanel: fileOf(switcherPanelSource),
        webAuthn: fileOf(webAuthnSource),
      },
      toasterStyles: manifest[toasterSource]?.css?.[0] ? `/${manifest[toasterSource].css[0]}` : null,
      signInScript: {
        src: fileOf(signInScriptSource),
        preloads: chunkClosure([signInScriptSource]).filter((file) => file !== fileOf(signInScriptSource)),
      },
      plainScripts: {
        liveCounts: plainScript(liveCountsSource),
        moreEntries: plainScript(moreEntriesSource),
        firmwareUpload: plainScript(firmwareUploadSource),
        copySecret: plainScript(copySecretSource),
      },
      devClient: null,
      preloadsFor: (names) => {
        const entry = fileOf(clientEntrySource);
        const islands = [...names].map((name) => `src/islands/${name}.island.tsx`);
        return chunkClosure([clientEntrySource, ...islands]).filter((file) => file !== entry);
      },
    }
  : null;

const development: AssetTags = {
  entryScript: `/${clientEntrySource}`,
  shellScript: `/${shellSource}`,
  shellModules: { toaster: `/${toasterSource}`, switcherPanel: `/${switcherPanelSource}`, webAuthn: `/${webAuthnSource}` },
  toasterStyles: null,
  signInScript: { src: `/${signInScriptSource}`, preloads: [] },
  plainScripts: {
    liveCounts: { src: `/${liveCountsSource}`, preloads: [] },
    moreEntries: { src: `/${moreEntriesSource}`, preloads: [] },
    firmwareUpload: { src: `/${firmwareUploadSource}`, preloads: [] },
    copySecret: { src: `/${copySecretSource}`, preloads: [] },
  },
  devClient: "/@vite/client",
  preloadsFor: () => [],
};

/** Where the browser finds our scripts: hashed files after a build, sources in dev. */
export const assetTags: AssetTags = built ?? development;
