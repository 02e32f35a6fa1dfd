import { readFileSync } from "node:fs";
import { dirname, extname } from "node:path";
import { compile, optimize } from "@tailwindcss/node";
import { Scanner } from "@tailwindcss/oxide";

/** The class candidates Tailwind finds in one file's text (what its own scan of that file finds). */
export function candidatesOf(file: string, text: string): string[] {
  return new Scanner({ sources: [] }).scanFiles([{ content: text, extension: extname(file).slice(1) }]);
}

/**
 * Builds our stylesheet (src/ui/styles.css: theme, base, components) with the utilities of
 * the given candidates only, minified as the Tailwind Vite plugin minifies it. A compiler
 * remembers every candidate it was given, so each sheet gets a fresh one.
 */
export async function buildSheet(cssFile: string, candidates: Iterable<string>): Promise<string> {
  const compiler = await compile(readFileSync(cssFile, "utf8"), { base: dirname(cssFile), onDependency: () => {} });
  return optimize(compiler.build([...candidates]), { minify: true }).code;
}

/** The whole project's sheet, as the Vite plugin scans for it (every source Tailwind detects). */
export async function buildFullSheet(cssFile: string, projectRoot: string): Promise<string> {
  const compiler = await compile(readFileSync(cssFile, "utf8"), { base: dirname(cssFile), onDependency: () => {} });
  const root = compiler.root;
  const sources = (
    root === "none"
      ? []
      : root === null
        ? [{ base: projectRoot, pattern: "**/*", negated: false }]
        : [{ ...root, negated: false }]
  ).concat(compiler.sources);
  const candidates = new Scanner({ sources }).scan();
  return optimize(compiler.build(candidates), { minify: true }).code;
}
