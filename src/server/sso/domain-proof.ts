/**
 * Proving an email domain for single sign-on (issue 9, §3): the domain's owner publishes a TXT
 * record at `_configuration-tool.<domain>` holding `configuration-tool-verification=<token>`,
 * and we read it through DNS over HTTPS (the JSON API Cloudflare's and Google's resolvers
 * speak). The resolver is a setting (DNS_RESOLVER_URL); tests stub fetch.
 */

/** The record's name for a domain. */
export function proofRecordName(domain: string): string {
  return `_configuration-tool.${domain}`;
}

/** The record's value for a claim's token. */
export function proofRecordValue(token: string): string {
  return `configuration-tool-verification=${token}`;
}

export type ProofCheck = "proven" | "not-found" | "resolver-failed";

type DohAnswer = { Status?: unknown; Answer?: unknown };

/** A TXT record's data as the JSON API gives it: one or more quoted strings, joined. */
function txtText(data: string): string {
  const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1"));
  return parts.length > 0 ? parts.join("") : data;
}

/** Whether the domain publishes the claim's token, asked of the resolver at `resolverUrl`. */
export async function checkDomainProof(resolverUrl: string, domain: string, token: string): Promise<ProofCheck> {
  const url = new URL(resolverUrl);
  url.searchParams.set("name", proofRecordName(domain));
  url.searchParams.set("type", "TXT");
  let body: DohAnswer;
  try {
    const response = await fetch(url, { headers: { Accept: "application/dns-json" }, signal: AbortSignal.timeout(5000) });
    if (!response.ok) return "resolver-failed";
    body = (await response.json()) as DohAnswer;
  } catch {
    return "resolver-failed";
  }
  // Status 3 is NXDOMAIN: the record is simply not there.
  if (body.Status !== 0 && body.Status !== 3) return "resolver-failed";
  const answers = Array.isArray(body.Answer) ? body.Answer : [];
  const expected = proofRecordValue(token);
  const found = answers.some(
    (answer) =>
      typeof answer === "object" &&
      answer !== null &&
      (answer as { type?: unknown }).type === 16 &&
      typeof (answer as { data?: unknown }).data === "string" &&
      txtText((answer as { data: string }).data).trim() === expected,
  );
  return found ? "proven" : "not-found";
}
