import type { PlainScript as Script } from "@/server/render/assets";
import { usePage } from "@/server/render/page-context";

/** A page's own plain script (no React), with module preloads for the chunks it imports. */
export function PlainScript({ script }: { script: Script }) {
  const { nonce } = usePage();
  return (
    <>
      {script.preloads.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      <script type="module" src={script.src} nonce={nonce} />
    </>
  );
}
