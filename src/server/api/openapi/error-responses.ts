import { errorCodes, httpStatusOf } from "@/schema/errors";
import type { JsonSchema } from "./types";

/** The answers every operation may give besides its data: one error shape, the codes of spec §8. */
const documented = [
  [
    "400",
    "BadRequest",
    ["BAD_REQUEST", "PARSE_ERROR"],
    "The input failed its check (fieldErrors name the fields) or was not JSON.",
  ],
  ["401", "Unauthorized", ["UNAUTHORIZED"], "No token, or one that is unknown, expired or revoked."],
  ["403", "Forbidden", ["FORBIDDEN"], "The token's role lacks the permission, or the thing is outside its accounts."],
  ["404", "NotFound", ["NOT_FOUND"], "Nothing with that id in the token's organization."],
  ["409", "Conflict", ["CONFLICT"], "The version sent is not the current one, or the state does not allow this step."],
  ["412", "PreconditionFailed", ["PRECONDITION_FAILED"], "A rule of the product refuses it (no free seat, a name in use …)."],
  ["429", "TooManyRequests", ["TOO_MANY_REQUESTS"], "Too many calls with this token: wait the seconds Retry-After says."],
] as const;

/** Status → the reusable response's name, for the operations' $refs. */
export const errorResponseNames: Record<string, string> = Object.fromEntries(documented.map(([status, name]) => [status, name]));

/** The statuses a query may answer with; a mutation may also meet a stale version (409) or a rule (412). */
export const queryErrorStatuses = ["400", "401", "403", "404", "429"];
export const mutationErrorStatuses = ["400", "401", "403", "404", "409", "412", "429"];

const codeNames = Object.keys(errorCodes) as (keyof typeof errorCodes)[];

/** tRPC's error answer as this server sends it (src/server/api/trpc.ts errorFormatter). */
export const errorSchema: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["message", "code", "data"],
      properties: {
        message: { type: "string", description: "A sentence in the caller's language (Accept-Language or the lang cookie)." },
        code: { type: "integer", enum: [...new Set(Object.values(errorCodes))], description: "The JSON-RPC code of spec §8." },
        data: {
          type: "object",
          required: ["code", "httpStatus"],
          properties: {
            code: { type: "string", enum: codeNames },
            httpStatus: { type: "integer" },
            path: { type: "string", description: "The procedure called." },
            fieldErrors: {
              type: "object",
              additionalProperties: { type: "array", items: { type: "string" } },
              description: "For BAD_REQUEST from an input check: messages per input field.",
            },
          },
        },
      },
    },
  },
};

export const retryAfterHeader = {
  description: "Seconds to wait before calling again.",
  schema: { type: "integer", minimum: 1 },
};

/** components.responses: one per status, all with the shared schema; 429 with Retry-After. */
export function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    documented.map(([status, name, codes, description]) => {
      const example = {
        error: {
          message: description,
          code: errorCodes[codes[0]],
          data: { code: codes[0], httpStatus: httpStatusOf[codes[0]] },
        },
      };
      const content = { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example } };
      const headers = status === "429" ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {};
      return [name, { description: `${codes.join(" or ")}: ${description}`, ...headers, content }];
    }),
  );
}

/** An operation's error answers, as references to the shared ones. */
export function errorRefs(statuses: readonly string[]): Record<string, { $ref: string }> {
  return Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/${errorResponseNames[status]}` }]));
}

/**
 * A download's refusals: it is a page of the site, so it answers with the route error screen
 * (HTML) and the status, not the procedures' JSON error.
 */
export function downloadErrors(statuses: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    documented
      .filter(([status]) => statuses.includes(status))
      .map(([status, , codes, description]) => [
        status,
        {
          description: `${codes[0]} (an HTML error page): ${description}`,
          ...(status === "429" ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } } : {}),
          content: { "text/html": { schema: { type: "string" } } },
        },
      ]),
  );
}
