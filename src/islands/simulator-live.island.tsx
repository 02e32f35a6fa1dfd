import { useEffect, useState } from "react";
import { type Messages, translate } from "./runtime/messages";

export type SimulatorLiveProps = { messages: Messages; uid: string; secret: string; formId: string };

function token(uid: string, secret: string): string {
  return btoa(`${uid}:${secret}`).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/**
 * The simulated radio's live connection: a WebSocket to /device/v1/connect (credentials in
 * the subprotocol, as browsers cannot set headers), heartbeats every 30 s, and on a push the
 * radio checks in at once (the simulator form is submitted, as its Check in button does).
 */
export default function SimulatorLive({ messages, uid, secret, formId }: SimulatorLiveProps) {
  // The server renders "needs JavaScript": without scripts nothing ever connects, so it must
  // not promise a connection; once hydrated, the effect starts connecting.
  const [status, setStatus] = useState<"noScript" | "connecting" | "connected" | "closed">("noScript");
  useEffect(() => {
    setStatus("connecting");
    const url = new URL("/device/v1/connect", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url, ["device-v1", `auth.${token(uid, secret)}`]);
    const heartbeat = setInterval(() => socket.readyState === WebSocket.OPEN && socket.send('{"type":"ping"}'), 30_000);
    socket.addEventListener("open", () => setStatus("connected"));
    socket.addEventListener("close", () => setStatus("closed"));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { type?: string };
      // A deployment step or a queued command: the radio checks in at once to fetch it.
      if (message.type === "check-in" || message.type === "command-queued") {
        const form = document.getElementById(formId) as HTMLFormElement | null;
        const button = form?.querySelector<HTMLButtonElement>('button[value="check-in"]');
        if (form && button) form.requestSubmit(button);
      }
    });
    return () => {
      clearInterval(heartbeat);
      socket.close();
    };
  }, [uid, secret, formId]);
  return (
    <p className="text-sm text-slate-700" data-testid="simulator-live" data-status={status}>
      {translate(messages, `simulator.live.${status}`)}
    </p>
  );
}
