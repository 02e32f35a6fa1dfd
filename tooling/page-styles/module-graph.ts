import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * The source files a module reaches through its static and dynamic imports, within `src/`
 * (packages bring no Tailwind classes: the scan of the whole project skips node_modules too).
 * A plain reading of the import statements, not a bundler: enough to know which files' text
 * Tailwind should scan for a page. Type-only imports are skipped (they ship no markup).
 */
export type GraphOptions = {
  /** The project's `src/` folder, what `@/` names. */
  srcDir: string;
  /**
   * Modules whose imports are not followed, each with what to follow instead. The island
   * registry imports every island; a page needs only the islands it names.
   */
  cut?: (file: string, text: string) => string[] | null;
  /** More files a module brings along without importing them (a script it links by URL). */
  extra?: (file: string, text: string) => string[];
};

const importPattern =
  /(?:^|[;\n}])\s*(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
const extensions = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function resolveImport(specifier: string, from: string, srcDir: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = join(srcDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = resolve(dirname(from), specifier);
  else return null;
  base = base.replace(/\?.*$/, "");
  for (const extension of extensions) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The imports of one module's text, resolved to files under `srcDir`. */
export function importsOf(file: string, text: string, srcDir: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(importPattern)) {
    if (match[1]) continue; // import type … from
    const specifier = match[2] ?? match[3];
    if (!specifier) continue;
    const resolved = resolveImport(specifier, file, srcDir);
    if (resolved) found.push(resolved);
  }
  return found;
}

/** Every file reachable from the roots (the roots included), in the order first met. */
export function moduleGraph(roots: string[], options: GraphOptions, cache = new Map<string, string>()): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    let text = cache.get(file);
    if (text === undefined) {
      text = readFileSync(file, "utf8");
      cache.set(file, text);
    }
    const next = options.cut?.(file, text) ?? importsOf(file, text, options.srcDir);
    queue.push(...next, ...(options.extra?.(file, text) ?? []));
  }
  return [...seen];
}
