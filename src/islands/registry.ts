import type { ComponentType } from "react";
import Toaster from "./toaster.island";

/**
 * The islands the server may render, each with the translation keys it is given.
 * The browser loads `src/islands/<name>.island.tsx`, so a name here must match its file
 * (a test checks this).
 */
export type IslandDefinition<P> = { component: ComponentType<P>; messageKeys: readonly string[] };

function define<P>(component: ComponentType<P>, messageKeys: readonly string[]): IslandDefinition<P> {
  return { component, messageKeys };
}

export const islands = {
  toaster: define(Toaster, ["toast.notifications"]),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = (typeof islands)[N] extends IslandDefinition<infer P> ? P : never;
