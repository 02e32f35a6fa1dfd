/**
 * `curl` examples for the reference page: a query as GET with its input URL-encoded by curl,
 * a mutation as POST with a JSON body, a download saved to a file. The token is read from
 * the shell ($TOKEN), never written into a command someone might paste into a ticket.
 */

/** A single-quoted shell word (a ' inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

const auth = `-H "Authorization: Bearer $TOKEN"`;

export function curlQuery(origin: string, procedure: string, input: unknown): string {
  return [
    `curl --get ${shellQuote(`${origin}/api/${procedure}`)} \\`,
    `  ${auth} \\`,
    `  --data-urlencode ${shellQuote(`input=${JSON.stringify(input ?? {})}`)}`,
  ].join("\n");
}

export function curlMutation(origin: string, procedure: string, input: unknown): string {
  return [
    `curl ${shellQuote(`${origin}/api/${procedure}`)} \\`,
    `  ${auth} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(input ?? {}))}`,
  ].join("\n");
}

export function curlDownload(origin: string, path: string, file: string): string {
  return [`curl -o ${shellQuote(file)} ${shellQuote(`${origin}${path}`)} \\`, `  ${auth}`].join("\n");
}
