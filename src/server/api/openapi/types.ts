/** The parts of an OpenAPI 3.1 document this project writes and reads (the reference page renders from it). */
export type JsonSchema = { [key: string]: unknown };

export type Parameter = {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  description?: string;
  schema?: JsonSchema;
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
};

export type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security: Record<string, string[]>[];
  "x-permission"?: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, unknown>;
};

export type PathItem = { get?: Operation; post?: Operation };

export type OpenApiDocument = {
  openapi: string;
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string };
  externalDocs: { description: string; url: string };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
  };
};
