/**
 * The island bootstrap. It runs only on pages that contain islands (forms): it finds each
 * marker the server rendered, loads that island's own chunk and hydrates it as a separate
 * React root with the same identifierPrefix the server used. If a chunk cannot be loaded
 * (usually a deploy replaced it), the shell's script says so and reloads (spec §2).
 */
import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { parseProps } from "./props";
import { chunkFailed, chunksLoaded } from "./shell-events";

const islandModules = import.meta.glob<{ default: ComponentType<Record<string, unknown>> }>("../*.island.tsx");

async function hydrate(element: HTMLElement): Promise<void> {
  const load = islandModules[`../${element.dataset.island}.island.tsx`];
  if (!load) throw new Error(`Unknown island ${element.dataset.island}`);
  const { default: Component } = await load();
  hydrateRoot(element, createElement(Component, parseProps(element.dataset.props)), {
    identifierPrefix: element.dataset.islandId,
  });
}

const markers = [...document.querySelectorAll<HTMLElement>("[data-island]")];
Promise.all(markers.map(hydrate)).then(chunksLoaded, chunkFailed);
