/**
 * Finds import cycles among source files, given each file's text. Type-only imports count too:
 * a circle of types still ties the modules together (and one value import turns it into a
 * load-order bug). Paths are absolute from the project root ("/src/server/env.ts"); "@/" is src/.
 */
export function importCycles(files: Record<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [path, text] of Object.entries(files)) {
    edges.set(
      path,
      [...specifiers(text)].flatMap((spec) => resolve(path, spec, files) ?? []),
    );
  }
  // Tarjan's strongly connected components: every component of more than one file is a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")` (also in types). */
function* specifiers(text: string): Generator<string> {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const match of code.matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) yield match[1] ?? "";
}

function resolve(from: string, spec: string, files: Record<string, string>): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = `/src/${spec.slice(2)}`;
  else if (spec.startsWith(".")) base = new URL(spec, `file://${from}`).pathname;
  else return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((path) => path in files);
}
