/**
 * The browser entry. It runs only on pages that contain islands: it finds each marker the
 * server rendered, loads that island's own chunk and hydrates it as a separate React root
 * with the same identifierPrefix the server used. If a chunk cannot be loaded (usually a
 * deploy replaced it), the page says so and reloads (spec §2).
 */
import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { parseProps } from "./props";

const islandModules = import.meta.glob<{ default: ComponentType<Record<string, unknown>> }>("../*.island.tsx");

const RELOAD_DELAY_MS = 1000;
const RELOAD_TRIES_KEY = "island-reload-tries";
const MAX_RELOAD_TRIES = 3;

function checkForUpdates(): void {
  if (document.getElementById("checking-for-updates")) return;
  const text = document.querySelector<HTMLElement>("[data-updating-text]")?.dataset.updatingText ?? "";
  const banner = document.createElement("div");
  banner.id = "checking-for-updates";
  banner.setAttribute("role", "status");
  banner.className = "updating-banner";
  banner.textContent = text;
  document.body.append(banner);
  // A chunk that stays missing would otherwise reload the page forever.
  const tries = Number(sessionStorage.getItem(RELOAD_TRIES_KEY) ?? 0);
  if (tries >= MAX_RELOAD_TRIES) return;
  sessionStorage.setItem(RELOAD_TRIES_KEY, String(tries + 1));
  setTimeout(() => location.reload(), RELOAD_DELAY_MS);
}

async function hydrate(element: HTMLElement): Promise<void> {
  const load = islandModules[`../${element.dataset.island}.island.tsx`];
  if (!load) throw new Error(`Unknown island ${element.dataset.island}`);
  const { default: Component } = await load();
  hydrateRoot(element, createElement(Component, parseProps(element.dataset.props)), {
    identifierPrefix: element.dataset.islandId,
  });
}

const markers = [...document.querySelectorAll<HTMLElement>("[data-island]")];
Promise.all(markers.map(hydrate)).then(() => sessionStorage.removeItem(RELOAD_TRIES_KEY), checkForUpdates);
