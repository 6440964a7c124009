import { randomBytes } from 'node:crypto';

/** The prefix of generated signing secrets, so a leaked one is recognizable in scanners. */
const GENERATED_SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` + 32 base64url characters (192 random bits). The HMAC key is the
 * whole string, prefix included.
 * @example generateWebhookSecret() // 'whsec_5WbX5kEWLlfzsGNjH64I8lOOqUB6e8FH'
 */
export function generateWebhookSecret(): string {
  return `${GENERATED_SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
}
