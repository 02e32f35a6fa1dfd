/**
 * How islands talk to the shell's script without importing it (so the shell stays one small
 * file and island chunks do not carry it): DOM events on document. The shell listens.
 */
export type ToastType = "success" | "error" | "info";

export const TOAST_EVENT = "shell:toast";
export const CHUNK_FAILED_EVENT = "shell:chunk-failed";

/** Shows a toast (the shell loads the toaster with the first one). */
export function showToast(type: ToastType, text: string): void {
  document.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { type, text } }));
}

/** A chunk could not be loaded: the shell says so and reloads (spec §2). */
export function chunkFailed(): void {
  document.dispatchEvent(new CustomEvent(CHUNK_FAILED_EVENT));
}

/** Every chunk the page wanted arrived: a later failure may reload again. */
export function chunksLoaded(): void {
  sessionStorage.removeItem("island-reload-tries");
}
