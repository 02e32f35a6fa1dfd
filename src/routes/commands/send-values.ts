import type { CommandType } from "@/schema/fleet/command-kinds";

/** The posted form as a send's input: the chosen type's parameters only; numbers stay text for the server to check. */
export const sendFields = ["type", "text", "beepSeconds", "delaySeconds", "expiryHours", "confirmUid"] as const;

export function paramsFromForm(type: string, posted: Record<string, string>): Record<string, string> {
  if (type === "message") return { text: posted.text ?? "" };
  if (type === "locate") return posted.beepSeconds ? { beepSeconds: posted.beepSeconds } : {};
  if (type === "reboot") return posted.delaySeconds ? { delaySeconds: posted.delaySeconds } : {};
  return {};
}

export function typeFromForm(posted: Record<string, string>): CommandType {
  return (posted.type ?? "") as CommandType;
}

/** The expiry as posted, or the default when the field was left out. */
export function expiryFromForm(posted: Record<string, string>): number | undefined {
  const value = Number(posted.expiryHours);
  return posted.expiryHours ? value : undefined;
}
