import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { transform } from "lightningcss";
import type { Plugin } from "vite";
import { moduleGraph } from "./module-graph.ts";
import { packSheets } from "./pieces.ts";
import { buildFullSheet, buildSheet, candidatesOf } from "./tailwind.ts";

/**
 * `virtual:page-styles`: the CSS each page inlines (issue 10 §3), only the rules its markup
 * and scripts can use.
 *
 * In the Worker's production build, one sheet per page module: Tailwind run over the classes
 * found in the files that module reaches (the page, its layouts, UI components and the
 * islands it names), plus what every page has (the document shell and the shell's scripts,
 * which add classes at run time: menus, the switcher, toasts). The virtual module imports
 * each page module, so the renderer finds a page's sheet from the page object it renders:
 * no scanning of HTML per request, one lookup. The workerd tests get the same; under
 * `vite dev` every page gets the whole stylesheet, as before.
 */
export type PageStylesOptions = {
  root: string;
};

const id = "virtual:page-styles";

/** Vite's default CSS minification targets (build.cssTarget 'baseline-widely-available'), so our sheets equal its output. */
const targets = { chrome: 111 << 16, edge: 111 << 16, firefox: 114 << 16, safari: (16 << 16) | (4 << 8) };
const minify = (css: string) =>
  transform({ filename: "page.css", code: Buffer.from(css), minify: true, targets }).code.toString();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** The page modules and what every page shares, and how the graph is read. */
function layout(root: string) {
  const src = join(root, "src");
  const islandNames = new Set(
    readdirSync(join(src, "islands"))
      .filter((file) => file.endsWith(".island.tsx"))
      .map((file) => file.replace(".island.tsx", "")),
  );
  return {
    src,
    css: join(src, "ui/styles.css"),
    // Route modules that define pages (or tables of them), plus the two screens rendered outside the table.
    pages: [
      ...filesUnder(join(src, "routes")).filter(
        // The table of every route reaches every page: its pages take their own modules' sheets.
        (file) => !file.endsWith("/routes/table.ts") && /\bdefinePage\b|RouteDefinition\[\]/.test(readFileSync(file, "utf8")),
      ),
      join(src, "ui/shell/error-screen.tsx"),
      join(src, "server/sso/problem-page.tsx"),
    ],
    // The document around every page and the shell's plain scripts (they add classes at run time).
    shared: [join(src, "server/render/render-page.tsx"), ...filesUnder(join(src, "shell"))],
    graph: {
      srcDir: src,
      // The registry imports every island; a page brings only the islands it names (<Island name="…">).
      cut: (file: string) => (file.endsWith("/islands/registry.ts") ? [] : null),
      extra: (file: string, text: string) => {
        const found: string[] = [];
        // An island named by an expression could not be followed: the build says so rather than guess.
        for (const match of text.matchAll(/<Island\b(?![\w.])/g)) {
          if (!/^\s+name="[a-z0-9-]+"/.test(text.slice((match.index ?? 0) + match[0].length))) {
            throw new Error(
              `${relative(root, file)}: <Island name=…> must be a plain string, so its page's CSS includes the island's classes`,
            );
          }
        }
        for (const match of text.matchAll(/\bname(?:=|:)\s*\{?\s*["']([a-z0-9-]+)["']/g)) {
          if (match[1] && islandNames.has(match[1])) found.push(join(src, "islands", `${match[1]}.island.tsx`));
        }
        // The sign-in form links its plain script by URL (src/server/render/assets.ts).
        if (/\.signInScript\.src\b/.test(text)) found.push(join(src, "enhance/sign-in.ts"));
        // A page's plain scripts (`plainScripts.firmwareUpload` is src/enhance/firmware-upload.ts)
        // add elements with classes of their own at run time.
        for (const match of text.matchAll(/\bplainScripts\.([a-zA-Z]+)/g)) {
          const name = (match[1] ?? "").replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
          found.push(join(src, "enhance", `${name}.ts`));
        }
        return found;
      },
    },
    // Where class names can come from: markup, and the UI's, shell's and islands' own modules.
    // Server and schema modules are walked through but hold no classes.
    scanned: (file: string) => file.endsWith(".tsx") || /[\\/]src[\\/](ui|shell|enhance|islands|routes)[\\/]/.test(file),
  };
}

/** The whole project's sheet, as every page inlined it before (byte for byte what `?inline` gave). */
export async function wholeSheet(root: string): Promise<string> {
  return minify(await buildFullSheet(join(root, "src/ui/styles.css"), root));
}

export type PageSheets = { modules: { file: string; sheet: number }[]; sheets: string[]; full: number };

/** Every page module's sheet (equal ones shared) and, last, the whole project's sheet as the fallback. */
export async function pageSheets(root: string): Promise<PageSheets> {
  const project = layout(root);
  const texts = new Map<string, string>();
  const candidates = new Map<string, string[]>();
  const candidatesIn = (files: Iterable<string>) => {
    const found = new Set<string>();
    for (const file of files) {
      if (!project.scanned(file)) continue;
      let own = candidates.get(file);
      if (!own) {
        own = candidatesOf(file, texts.get(file) ?? readFileSync(file, "utf8"));
        candidates.set(file, own);
      }
      for (const candidate of own) found.add(candidate);
    }
    return found;
  };
  const shared = moduleGraph(project.shared, project.graph, texts);
  const sheets: string[] = [];
  const sheetIndex = (css: string) => {
    const index = sheets.indexOf(css);
    return index >= 0 ? index : sheets.push(css) - 1;
  };
  const modules: PageSheets["modules"] = [];
  for (const file of project.pages) {
    const files = new Set([...shared, ...moduleGraph([file], project.graph, texts)]);
    const css = minify(await buildSheet(project.css, candidatesIn(files)));
    modules.push({ file, sheet: sheetIndex(css) });
  }
  const full = sheetIndex(await wholeSheet(root));
  return { modules, sheets, full };
}

export function pageStyles({ root }: PageStylesOptions): Plugin {
  // Computed once per process (a few seconds): Vitest may load the module in several workers.
  let computed: Promise<PageSheets> | null = null;
  return {
    name: "page-styles",
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    watchChange: () => {
      computed = null;
    },
    async load(source) {
      if (source !== `\0${id}`) return;
      // The Worker's build, and the workerd tests (so they can check every route has its sheet).
      const isWorkerBuild = this.environment?.config.command === "build" && this.environment.name !== "client";
      if (!isWorkerBuild && !process.env.VITEST) {
        return [
          'import full from "@/ui/styles.css?inline";',
          "export const layers = [];",
          "export const pieces = [[-1, full]];",
          'export const sheets = ["AQ=="];',
          "export const modules = () => [];",
          "export const full = 0;",
        ].join("\n");
      }
      computed ??= pageSheets(root);
      const { modules, sheets, full } = await computed;
      const packed = packSheets(sheets);
      return [
        ...modules.map(({ file }, index) => `import * as page${index} from ${JSON.stringify(`/${relative(root, file)}`)};`),
        `export const layers = ${JSON.stringify(packed.layers)};`,
        `export const pieces = ${JSON.stringify(packed.pieces.map((piece) => [piece.layer, piece.text]))};`,
        `export const sheets = ${JSON.stringify(packed.sheets)};`,
        // A function: page modules import the renderer, which imports this module (a cycle), so
        // their namespaces are read when a page is first rendered, not while modules load.
        `export const modules = () => [${modules.map(({ sheet }, index) => `[page${index}, ${sheet}]`).join(", ")}];`,
        `export const full = ${full};`,
      ].join("\n");
    },
  };
}
