import { full, layers, modules, pieces, sheets } from "virtual:page-styles";

/**
 * The CSS a page inlines (issue 10 §3): the sheet built for the module that exports what is
 * rendered (a route's page, the error screen, the SSO problem page), see
 * tooling/page-styles/plugin.ts. One map lookup per request; each sheet is put together from
 * its shared pieces once per isolate, the first time a page needs it.
 */

let sheetOfExport: WeakMap<object, number> | null = null;
const assembled: (string | undefined)[] = [];

function isObject(value: unknown): value is object {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

/** Built on first use: the page modules import the renderer too, so not while modules load. */
function exportsMap(): WeakMap<object, number> {
  if (sheetOfExport) return sheetOfExport;
  const map = new WeakMap<object, number>();
  const pageModules = modules();
  // How many rules a sheet has: a sheet with more reaches more.
  const sheetLength = (index: number) => {
    let count = 0;
    for (const char of atob(sheets[index] ?? "")) for (let byte = char.charCodeAt(0); byte; byte >>= 1) count += byte & 1;
    return count;
  };
  // A page a module exports takes that module's sheet; one exported by two modules (a re-export)
  // takes the larger one, the module that reaches more.
  const claim = (value: object, sheet: number) => {
    const current = map.get(value);
    if (current === undefined || sheetLength(sheet) > sheetLength(current)) map.set(value, sheet);
  };
  for (const [namespace, sheet] of pageModules) {
    for (const value of Object.values(namespace)) if (isObject(value)) claim(value, sheet);
  }
  // Pages defined inline in a module's route table ({ path, page }) take that module's sheet.
  for (const [namespace, sheet] of pageModules) {
    for (const value of Object.values(namespace)) {
      if (!Array.isArray(value)) continue;
      for (const route of value) {
        const page = isObject(route) ? (route as { page?: unknown }).page : undefined;
        if (isObject(page) && !map.has(page)) map.set(page, sheet);
      }
    }
  }
  sheetOfExport = map;
  return map;
}

function assemble(index: number): string {
  const bits = atob(sheets[index] ?? "");
  let css = "";
  let open = -1;
  for (let piece = 0; piece < pieces.length; piece++) {
    if (!((bits.charCodeAt(piece >> 3) >> (piece & 7)) & 1)) continue;
    const [layer, text] = pieces[piece] as [number, string];
    if (layer !== open) {
      if (open >= 0) css += "}";
      if (layer >= 0) css += `@layer ${layers[layer]}{`;
      open = layer;
    }
    css += text;
  }
  return open >= 0 ? `${css}}` : css;
}

function sheet(index: number): string {
  let css = assembled[index];
  if (css === undefined) {
    css = assemble(index);
    assembled[index] = css;
  }
  return css;
}

/** The inline CSS for a page rendered from `source` (a page definition or an exported component); the whole sheet if unknown. */
export function pageStylesOf(source: unknown): string {
  const index = isObject(source) ? exportsMap().get(source) : undefined;
  return sheet(index ?? full);
}

/** Whether `source` has a sheet of its own (a test checks every route has). */
export function hasOwnPageStyles(source: unknown): boolean {
  return isObject(source) && exportsMap().has(source);
}
