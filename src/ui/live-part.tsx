import type { ReactNode } from "react";

/**
 * A piece of a page that follows its subject's state (src/islands/runtime/live-parts.ts swaps
 * it for the server's fresh copy). Always rendered, empty or not, so there is a place to swap
 * into; inline by default, as a block with `block`.
 */
export function LivePart({ name, block = false, children }: { name: string; block?: boolean; children?: ReactNode }) {
  const Tag = block ? "div" : "span";
  return (
    <Tag data-live-part={name} className="empty:hidden">
      {children}
    </Tag>
  );
}
