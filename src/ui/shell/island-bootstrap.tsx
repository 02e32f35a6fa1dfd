import { usePage } from "@/server/render/page-context";

/**
 * The scripts at the end of <body>: the shell's one small plain script on every page, and the
 * island bootstrap (React) only on pages with islands. Rendered last, so by then every
 * island on the page has registered.
 */
export function IslandBootstrap() {
  const { islands, assets, nonce } = usePage();
  const hasIslands = islands.names.size > 0;
  return (
    <>
      {hasIslands && assets.preloadsFor(islands.names).map((href) => <link key={href} rel="modulepreload" href={href} />)}
      {hasIslands && assets.devClient && <script type="module" src={assets.devClient} nonce={nonce} />}
      <script type="module" src={assets.shellScript} nonce={nonce} />
      {hasIslands && <script type="module" src={assets.entryScript} nonce={nonce} />}
    </>
  );
}
