/**
 * The address a radio is handed over to (DESIGN §7): another management server, always over
 * https (a radio must never be sent to a server it cannot authenticate), with a host name and
 * no credentials in it. Returns the normalised address, or the translation key of what is wrong.
 */
export const HAND_OVER_MAX = 500;

export function handOverAddress(value: string): { url: string } | { error: string } {
  const text = value.trim();
  if (!text) return { error: "devices.handOver.errors.required" };
  if (text.length > HAND_OVER_MAX) return { error: "devices.handOver.errors.tooLong" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: "devices.handOver.errors.invalid" };
  }
  if (url.protocol !== "https:") return { error: "devices.handOver.errors.https" };
  if (url.username || url.password || !url.hostname.includes(".") || url.hostname.endsWith("."))
    return { error: "devices.handOver.errors.invalid" };
  return { url: url.href };
}
