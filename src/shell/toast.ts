import type { ToastType } from "@/islands/runtime/shell-events";
import { checkForUpdates } from "./updates";

type Show = (type: ToastType, text: string) => void;

let toaster: Promise<Show> | null = null;

/** Links the toaster's stylesheet (sonner's CSS, a file of its own since tooling/sonner-css.ts). */
function loadStyles(href: string | undefined): Promise<void> {
  if (!href) return Promise.resolve(); // development: Vite injects it with the module
  return new Promise((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => reject(new Error(`stylesheet ${href} failed`));
    document.head.append(link);
  });
}

/**
 * Shows a toast (spec §9). The toaster (React and sonner) and its stylesheet are loaded, side
 * by side, with the first toast, not before: most pages never show one. If either cannot be
 * loaded, the page checks for updates.
 */
export function showToast(type: ToastType, text: string): void {
  const { toasterSrc = "", toasterStyles, toastLabel = "Notifications" } = document.body.dataset;
  toaster ??= Promise.all([
    import(/* @vite-ignore */ toasterSrc) as Promise<typeof import("./toaster")>,
    loadStyles(toasterStyles),
  ]).then(([{ mountToaster }]) => mountToaster(toastLabel));
  toaster.then(
    (show) => show(type, text),
    () => {
      toaster = null;
      checkForUpdates();
    },
  );
}
