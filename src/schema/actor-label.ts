/**
 * Who made a change, as people read it (issue 27). Changes made with an API token carry the
 * label `api-token:<name>` where a person's email would be; screens show "API token “name”" in
 * the reader's language instead. No imports: islands and plain scripts may use it.
 */
export const TOKEN_ACTOR_PREFIX = "api-token:";

/** The token's name when the actor is an API token, else null (a person's email). */
export function tokenNameOfActor(actor: string): string | null {
  return actor.startsWith(TOKEN_ACTOR_PREFIX) ? actor.slice(TOKEN_ACTOR_PREFIX.length) : null;
}

/** The actor as shown: a person's email as it is, a token by its translated label. */
export function actorLabel(actor: string, text: (key: string, values: Record<string, string>) => string): string {
  const name = tokenNameOfActor(actor);
  return name === null ? actor : text("apiTokens.actor", { name });
}
