import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock';
import type { ServerSecretRepository } from '../../store/server-secret-repository';

/** How long a pre-signed download URL stays valid: one hour (spec). */
const DOWNLOAD_URL_TTL_SECONDS = 60 * 60;

/** The name of the generated signing key in the server secrets. */
const SECRET_NAME = 'attachment_signing_secret';

/** The outcome of checking a download URL's signature. */
export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/** Where the signing key comes from: the configuration, or a key generated once and stored. */
export interface SigningKeySource {
  /** `ATTACHMENT_SIGNING_SECRET`, when set. */
  configured: string | undefined;
  /** Where a generated key is kept. */
  secrets: ServerSecretRepository;
}

/**
 * Signs and checks the pre-signed download URLs of stored attachments:
 * `<base>/v1/attachments/<id>?expires=<unix seconds>&signature=<hex HMAC-SHA256 of "<id>.<expires>">`.
 * The key is the configured secret, or one generated on first use and kept in the database, so
 * URLs handed out before a restart keep working after it.
 */
export class AttachmentSigner {
  readonly #source: SigningKeySource;
  readonly #baseUrl: string;
  readonly #clock: Clock;
  #key: Promise<Buffer> | undefined;

  /** A signer issuing URLs under `baseUrl` (the server's public address). */
  constructor(source: SigningKeySource, baseUrl: string, clock: Clock) {
    this.#source = source;
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#clock = clock;
  }

  /** A download URL for the attachment `id`, valid `ttlSeconds` (one hour) from now. */
  async urlFor(id: string, ttlSeconds = DOWNLOAD_URL_TTL_SECONDS): Promise<string> {
    const expires = Math.floor(this.#clock.now() / 1000) + ttlSeconds;
    const signature = await this.#sign(id, expires);
    const query = new URLSearchParams({ expires: String(expires), signature });
    return `${this.#baseUrl}/v1/attachments/${encodeURIComponent(id)}?${query.toString()}`;
  }

  /**
   * Checks a URL's `expires` and `signature` for `id`. The signature is compared first and in
   * constant time, so an expired URL is only reported as such when it was genuine.
   */
  async check(id: string, expires: number, signature: string): Promise<SignatureCheck> {
    const expected = Buffer.from(await this.#sign(id, expires), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return expires * 1000 <= this.#clock.now() ? 'expired' : 'valid';
  }

  async #sign(id: string, expires: number): Promise<string> {
    const key = await this.#signingKey();
    return createHmac('sha256', key).update(`${id}.${expires}`).digest('hex');
  }

  #signingKey(): Promise<Buffer> {
    this.#key ??= this.#loadKey().catch((error: unknown) => {
      // A failed load (database busy) is retried by the next call rather than cached forever.
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  async #loadKey(): Promise<Buffer> {
    const configured = this.#source.configured;
    if (configured !== undefined) return Buffer.from(configured, 'utf8');
    const generated = randomBytes(32).toString('hex');
    const stored = await this.#source.secrets.getOrCreate(
      SECRET_NAME,
      generated,
      new Date(this.#clock.now()),
    );
    return Buffer.from(stored, 'utf8');
  }
}
