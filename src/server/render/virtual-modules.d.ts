declare module "virtual:client-manifest" {
  /** Vite's client build manifest, or null in development and tests (see vite.config.ts). */
  const manifest: Record<
    string,
    { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] }
  > | null;
  export default manifest;
}
