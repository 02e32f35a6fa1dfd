// npm run openapi: writes docs/api/openapi.json from the router (src/server/api/openapi/document.ts).
// Vite's module runner loads the TypeScript sources with the project's "@/" alias, in Node.
// The Worker serves the committed file; tests/worker/openapi.test.ts fails when it is out of date.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runnerImport } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = `${root}docs/api/openapi.json`;
const { module } = await runnerImport(`${root}src/server/api/openapi/document.ts`, {
  configFile: false,
  root,
  logLevel: "error",
  resolve: { alias: { "@": `${root}src` } },
});
const document = module.buildOpenApiDocument();
mkdirSync(`${root}docs/api`, { recursive: true });
writeFileSync(target, module.openApiText(document));
console.log(`docs/api/openapi.json: ${Object.keys(document.paths).length} paths`);
