/**
 * The strings an island was given by the server, and a tiny translator over them.
 * Islands do not ship i18next: the server picks the keys each island declares
 * (see registry.ts) in the request's language and passes them as a prop.
 */
export type Messages = Record<string, string>;

/** Looks up a key and fills `{{name}}` placeholders; a missing key shows the key itself. */
export function translate(messages: Messages, key: string, values?: Record<string, string | number>): string {
  const template = messages[key] ?? key;
  if (!values) return template;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
