// The Workers runtime types, imported as modules so they do not clash with the DOM's globals.
export type {
  D1Database,
  D1PreparedStatement,
  D1Result,
  DurableObjectNamespace,
  DurableObjectState,
  ExecutionContext,
  Fetcher,
  R2Bucket,
  WebSocket as WorkerWebSocket,
  WebSocketRequestResponsePair,
} from "@cloudflare/workers-types/index.ts";
