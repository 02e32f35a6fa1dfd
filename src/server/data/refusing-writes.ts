import type { D1Database } from "../cloudflare";
import { mayWrite } from "./read-coalescing";

/** A write asked for before the session has said who is asking. */
export class WriteBeforeSession extends Error {
  constructor(query: string) {
    super(`a write before the session was confirmed: ${query.slice(0, 60)}`);
  }
}

/**
 * The database `db` for work done on a hint of who is asking (src/server/middleware/session.ts):
 * reads as usual, and every write refused where it is prepared, so nothing is written for
 * someone the session may not confirm. `refused` hears of each refusal, however the work then
 * handled the error, so that the work can be done again once the session has confirmed.
 */
export function refusingWrites(db: D1Database, refused: () => void = () => {}): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          if (mayWrite(query)) {
            refused();
            throw new WriteBeforeSession(query);
          }
          return target.prepare(query);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
