/**
 * Which URLs a webhook may point at (no SSRF into internal hosts): https only, no IP literal of
 * a private, loopback, link-local or unique-local range, no "localhost". With `allowLocal`
 * (WEBHOOKS_ALLOW_LOCAL set, the local demo and the e2e receiver) http://localhost and
 * http://127.0.0.1 are accepted too.
 */
export type UrlRefusal = "validation.WebhookUrl" | "validation.WebhookUrlHttps" | "validation.WebhookUrlPrivate";

function privateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

export function webhookUrlRefusal(raw: string, allowLocal: boolean): UrlRefusal | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return "validation.WebhookUrl";
  }
  if (url.username || url.password || raw.length > 2000) return "validation.WebhookUrl";
  const host = url.hostname.toLowerCase();
  const local = host === "localhost" || host === "127.0.0.1";
  if (allowLocal && local && (url.protocol === "http:" || url.protocol === "https:")) return null;
  if (url.protocol !== "https:") return "validation.WebhookUrlHttps";
  if (local || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local"))
    return "validation.WebhookUrlPrivate";
  // An IPv6 literal is refused whole (loopback, link-local, unique-local, mapped IPv4): use a name.
  if (isIpLiteral(host) && (host.startsWith("[") || privateIpv4(host))) return "validation.WebhookUrlPrivate";
  return null;
}
