/** The parts of a Cloudflare Queue this app uses (producer and consumer), typed here so tests can fake them. */
export type WebhookMessage = { deliveryId: string };

export type WebhookQueue = { send(body: WebhookMessage, options?: { delaySeconds?: number }): Promise<void> };

export type QueueMessage<Body> = {
  readonly body: Body;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
};

export type QueueBatch<Body> = { readonly messages: readonly QueueMessage<Body>[] };
