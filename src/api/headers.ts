/** Header names of the contract, lower-case as the Fetch API reports them. */
export const HEADERS = {
  creditsCharged: 'x-credits-charged',
  creditsRemaining: 'x-credits-remaining',
  rateLimitLimit: 'x-ratelimit-limit',
  rateLimitRemaining: 'x-ratelimit-remaining',
  retryAfter: 'retry-after',
  idempotencyKey: 'idempotency-key',
  apiKey: 'x-api-key',
  location: 'location',
} as const;

/** Idempotency keys we accept: printable ASCII without spaces, 1-255 characters (Stripe's bound). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
