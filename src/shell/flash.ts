import type { ToastType } from "@/islands/runtime/shell-events";
import { showToast } from "./toast";

/** The flash the server put on the page as a status message is also shown as a toast. */
export function showFlash(): void {
  const flash = document.querySelector<HTMLElement>("[data-flash]");
  const type = flash?.dataset.flash as ToastType | undefined;
  const text = flash?.textContent?.trim();
  if (type && text) showToast(type, text);
}
