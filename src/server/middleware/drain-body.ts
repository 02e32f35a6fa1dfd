import type { MiddlewareHandler } from "hono";

/** Bodies larger than this are left unread (the connection may then close): no one waits on a 10 MB refusal. */
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Reads to its end any request body the Worker answered without reading (a refused form
 * post, a non-JSON API call, a body over its limit). Answering while the client is still
 * sending made the local server's layers in front of the Worker fail the call with a 500
 * "Network connection lost" (issue 9: the intermittent 500 of the browser suite). The bytes
 * are discarded as they come.
 */
export const drainUnreadBody: MiddlewareHandler = async (c, next) => {
  await next();
  const body = c.req.raw.body;
  if (!body || body.locked) return;
  let size = 0;
  try {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > DRAIN_MAX_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away meanwhile: nothing left to drain.
  }
};
