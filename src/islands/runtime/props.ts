/**
 * Island props cross from server to browser as JSON in an HTML attribute. React escapes the
 * attribute, so text such as `</script>` or `<!--` cannot end it; this module makes sure the
 * value is plain JSON (no functions, dates, undefined or non-finite numbers) before it goes.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export class IslandPropsError extends Error {}

function assertJson(value: unknown, path: string): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new IslandPropsError(`${path} is not a finite number`);
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) assertJson(item, `${path}[${index}]`);
    return;
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue; // dropped by JSON, like an absent optional prop
      assertJson(item, `${path}.${key}`);
    }
    return;
  }
  throw new IslandPropsError(`${path} is not JSON (${Object.prototype.toString.call(value)})`);
}

export function serializeProps(name: string, props: object): string {
  assertJson(props, name);
  return JSON.stringify(props);
}

export function parseProps(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
