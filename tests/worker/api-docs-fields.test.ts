import { describe, expect, it } from "vitest";
import { z } from "zod";
import { curlDownload, curlMutation, curlQuery, shellQuote } from "@/routes/api-docs/curl";
import { inputRows, typeLabel } from "@/routes/api-docs/schema-fields";
import { inputSchemaOf } from "@/server/api/openapi/procedure-entries";

// How the reference page reads an input's JSON Schema, and the curl it prints.

const schemaOf = (schema: z.ZodType) => inputSchemaOf([schema]);

describe("an input's fields", () => {
  it("names nested fields with dots, lists with [], says what is required and the limits", () => {
    const rows = inputRows(
      schemaOf(
        z.object({
          accountId: z.string().min(1).max(64),
          pageSize: z.number().int().min(1).max(100).default(25),
          plan: z.object({ phases: z.array(z.object({ share: z.number().int().min(1).max(100) })).min(1) }).optional(),
          note: z.string().default(""),
        }),
      ),
    );
    expect(rows).toEqual([
      { name: "accountId", type: "string", required: true, notes: ["minLength: 1", "maxLength: 64"] },
      { name: "pageSize", type: "integer", required: false, notes: ["default: 25", "minimum: 1", "maximum: 100"] },
      { name: "plan", type: "object", required: false, notes: [] },
      { name: "plan.phases", type: "object[]", required: true, notes: ["minItems: 1"] },
      { name: "plan.phases[].share", type: "integer", required: true, notes: ["minimum: 1", "maximum: 100"] },
      { name: "note", type: "string", required: false, notes: ['default: ""'] },
    ]);
  });

  it("gives each variant of a union its fields, labelled by what tells it apart", () => {
    const rows = inputRows(
      schemaOf(
        z.discriminatedUnion("type", [
          z.object({ type: z.literal("buttons"), side1: z.enum(["monitor", "scan"]) }),
          z.object({ type: z.literal("channels"), channels: z.array(z.string()) }),
        ]),
      ),
    );
    expect(rows.map((row) => [row.variant, row.name, row.type])).toEqual([
      ['type = "buttons"', "type", '"buttons"'],
      ['type = "buttons"', "side1", '"monitor" | "scan"'],
      ['type = "channels"', "type", '"channels"'],
      ['type = "channels"', "channels", "string[]"],
    ]);
  });

  it("says unions of plain types, maps and what JSON cannot say in short", () => {
    expect(typeLabel({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
    expect(typeLabel({ type: "object", additionalProperties: { type: "integer" } })).toBe("{ [key]: integer }");
    expect(typeLabel({})).toBe("any");
    expect(inputRows(null)).toEqual([]);
  });
});

describe("curl examples", () => {
  it("quotes for the shell, a ' included", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });

  it("sends a query's input URL-encoded by curl, a mutation's as a JSON body, a download to a file", () => {
    expect(curlQuery("https://x.test", "sites.list", { accountId: "acc_1" })).toBe(
      [
        "curl --get 'https://x.test/api/sites.list' \\",
        '  -H "Authorization: Bearer $TOKEN" \\',
        `  --data-urlencode 'input={"accountId":"acc_1"}'`,
      ].join("\n"),
    );
    expect(curlMutation("https://x.test", "sites.add", { name: "O'Hare" })).toContain(`-d '{"name":"O'\\''Hare"}'`);
    expect(curlDownload("https://x.test", "/a/export.csv", "export.csv")).toBe(
      `curl -o 'export.csv' 'https://x.test/a/export.csv' \\\n  -H "Authorization: Bearer $TOKEN"`,
    );
  });
});

describe("the generator", () => {
  it("refuses an input whose schema would need definitions of its own (they would not resolve in the document)", () => {
    type Node = { children: Node[] };
    const tree: z.ZodType<Node> = z.object({ children: z.array(z.lazy(() => tree)) });
    expect(() => schemaOf(tree)).toThrow();
  });
});
