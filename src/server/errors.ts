import type { ErrorCodeName } from "../schema/errors";

/** An error a page or procedure raises on purpose, named by its spec §8 code. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCodeName,
    message: string = code,
  ) {
    super(message);
    this.name = "AppError";
  }
}
