declare module "virtual:client-manifest" {
  /** Vite's client build manifest, or null in development and tests (see vite.config.ts). */
  const manifest: Record<
    string,
    { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] }
  > | null;
  export default manifest;
}

declare module "virtual:page-styles" {
  /** Layer names of the pieces (tooling/page-styles/pieces.ts). */
  export const layers: string[];
  /** Every rule of every page's sheet once, in one order: [layer index or -1, text]. */
  export const pieces: [number, string][];
  /** Each sheet as a base64 bit set over `pieces`. */
  export const sheets: string[];
  /** Each page module's namespace and the index of its sheet. */
  export const modules: () => [Record<string, unknown>, number][];
  /** The index of the whole project's sheet, for anything rendered without a sheet of its own. */
  export const full: number;
}
