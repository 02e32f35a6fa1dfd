import type { ToastType } from "@/islands/runtime/shell-events";
import { checkForUpdates } from "./updates";

type Show = (type: ToastType, text: string) => void;

let toaster: Promise<Show> | null = null;

/**
 * Shows a toast (spec §9). The toaster (React and sonner) is loaded with the first toast, not
 * before: most pages never show one. If its chunk cannot be loaded, the page checks for updates.
 */
export function showToast(type: ToastType, text: string): void {
  const src = document.body.dataset.toasterSrc ?? "";
  toaster ??= (import(/* @vite-ignore */ src) as Promise<typeof import("./toaster")>).then(({ mountToaster }) =>
    mountToaster(document.body.dataset.toastLabel ?? "Notifications"),
  );
  toaster.then(
    (show) => show(type, text),
    () => {
      toaster = null;
      checkForUpdates();
    },
  );
}
