/**
 * The key a confirm or roll-back form sends (idempotencyKey of deployments.create/rollback): the
 * number of the deployment the person is about to make, so a double click, a retried post or a
 * second tab of the same page makes that deployment once.
 */
export function requestKey(nextNumber: number): string {
  return `next-${nextNumber}`;
}
