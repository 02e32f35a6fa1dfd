import { usePage } from "@/server/render/page-context";

/**
 * The scripts at the end of <body>. Rendered last, so by then every island on the page has
 * registered; a page without islands gets no script at all.
 */
export function IslandBootstrap() {
  const { islands, assets, nonce, t } = usePage();
  if (islands.names.size === 0) return null;
  return (
    <>
      {assets.preloadsFor(islands.names).map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {assets.devClient && <script type="module" src={assets.devClient} nonce={nonce} />}
      <script type="module" src={assets.entryScript} nonce={nonce} data-updating-text={t("app.checkingForUpdates")} />
    </>
  );
}
