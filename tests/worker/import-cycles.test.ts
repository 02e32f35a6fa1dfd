import { describe, expect, it } from "vitest";
import { importCycles } from "../../tooling/import-cycles";

// No module of the server imports itself through others (issue 23: env ↔ middleware/session ↔
// auth/sessions ↔ settings, and deployment-clock ↔ deployment-engine).
const server = import.meta.glob<string>("/src/server/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

describe("the server's imports", () => {
  it("reads the server's modules", () => {
    expect(Object.keys(server)).toContain("/src/server/env.ts");
    expect(Object.keys(server).length).toBeGreaterThan(100);
  });

  it("form no cycle", () => {
    expect(importCycles(server)).toEqual([]);
  });

  it("finds a cycle, type-only and through import() types too", () => {
    const files = {
      "/src/server/a.ts": 'import type { B } from "./b";\nexport type A = B;',
      "/src/server/b.ts": 'export type B = import("@/server/c").C;',
      "/src/server/c.ts": '// import { x } from "./a"\nimport { a } from "./a";',
      "/src/server/d.ts": 'import { a } from "./a";',
    };
    expect(importCycles(files)).toEqual([["/src/server/a.ts", "/src/server/b.ts", "/src/server/c.ts"]]);
  });
});
