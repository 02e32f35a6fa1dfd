/**
 * The generic fetch helper of spec §7: the body is parsed as JSON when the response says it
 * is JSON (text otherwise), and a non-ok status fails with the response text. A failure to
 * reach the server stays fetch's own TypeError, so callers can tell the two apart.
 */
export class FetchError extends Error {
  constructor(
    readonly status: number,
    text: string,
  ) {
    super(text);
  }
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new FetchError(response.status, await response.text());
  const json = /json/.test(response.headers.get("Content-Type") ?? "");
  return (json ? await response.json() : await response.text()) as T;
}

/** A POST of `body` as JSON (or of nothing), answered with JSON. */
export function postJson<T>(url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetchJson<T>(url, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
