import { useEffect } from "react";
import { Toaster as Sonner, toast } from "sonner";
import type { Messages } from "./runtime/messages";

export type ToastMessage = { type: "success" | "error" | "info"; text: string };

export type ToasterProps = {
  messages: Messages;
  /** A flash from the server (a form posted, then redirected) shown once on load. */
  initial?: ToastMessage | null;
};

/**
 * The page's toaster. Sonner 1.7's defaults are the spec's (§9): 4000 ms, 3 visible, 356 px
 * wide, 14 px gap, dismissed by a 20 px swipe or a speed above 0.11, 200 ms removal, Alt+T.
 * Other islands call `toast()` from the same sonner module chunk and land here.
 */
export default function Toaster({ messages, initial }: ToasterProps) {
  useEffect(() => {
    if (!initial) return;
    const show = initial.type === "error" ? toast.error : initial.type === "success" ? toast.success : toast.info;
    show(initial.text);
  }, [initial]);
  return (
    <Sonner
      position="bottom-right"
      theme="light"
      hotkey={["altKey", "KeyT"]}
      containerAriaLabel={messages["toast.notifications"] ?? "Notifications"}
    />
  );
}
