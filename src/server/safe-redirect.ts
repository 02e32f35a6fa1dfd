/**
 * A path on this site to go back to after a form, or the fallback: never another origin
 * ("//evil.example", "/\\evil.example", "https://…") so a link cannot turn us into an open redirect.
 */
export function localPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/")) return fallback;
  if (value.startsWith("//") || value.startsWith("/\\")) return fallback;
  try {
    const url = new URL(value, "http://local.invalid");
    return url.origin === "http://local.invalid" ? url.pathname + url.search + url.hash : fallback;
  } catch {
    return fallback;
  }
}
