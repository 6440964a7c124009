import { readFile } from 'node:fs/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { findUp, moduleDir } from '../find-up';

/** Where the reference page lives, and the prefix of its assets. */
export const DOCS_PATH = '/docs';

/** A page or asset of the reference. */
export interface ReferenceResponse {
  /** HTTP status. */
  status: number;
  /** `Content-Type`. */
  contentType: string;
  /** The bytes. */
  body: Buffer;
}

/**
 * The API's own documentation: `openapi/openapi.json` (generated from the contract, found beside
 * the package) and an interactive reference of it (Scalar), whose script the server serves
 * itself, so `/docs` works offline and behind a firewall. Scalar's bundle (about 5 MB of
 * JavaScript) is loaded on the first request for the reference, never at start: it runs in a
 * Fastify instance of its own that the routes ask through `inject`.
 */
export class ApiReference {
  readonly #publicBaseUrl: string;
  #document: Promise<Record<string, unknown>> | undefined;
  #reference: Promise<FastifyInstance> | undefined;

  /** The reference of the server reachable at `publicBaseUrl` (`PUBLIC_BASE_URL`). */
  constructor(publicBaseUrl: string) {
    this.#publicBaseUrl = publicBaseUrl;
  }

  /**
   * The OpenAPI document, read once, naming this server (`PUBLIC_BASE_URL`, else its own host and
   * port) as its only server: the generated file can only name the default `127.0.0.1:3000`.
   */
  document(): Promise<Record<string, unknown>> {
    this.#document ??= readFile(findUp('openapi/openapi.json', moduleDir(import.meta.url)), 'utf8')
      .then((text) => ({
        ...(JSON.parse(text) as Record<string, unknown>),
        servers: [{ url: this.#publicBaseUrl, description: 'This Switchboard server' }],
      }))
      .catch((error: unknown) => {
        this.#document = undefined;
        throw error;
      });
    return this.#document;
  }

  /**
   * The reference page, served at `/docs` itself: Scalar's page lives at `/docs/` and names its
   * script relatively, so the script's path is made absolute.
   */
  async html(): Promise<string> {
    const page = await this.page(`${DOCS_PATH}/`);
    return page.body.toString('utf8').replace('src="js/', `src="${DOCS_PATH}/js/`);
  }

  /** A page or asset of the reference (`/docs/…`). */
  async page(url: string): Promise<ReferenceResponse> {
    const reference = await this.#instance();
    const response = await reference.inject({ method: 'GET', url });
    return {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
      body: response.rawPayload,
    };
  }

  /** Stops the reference's instance, when one was started. */
  async close(): Promise<void> {
    const reference = this.#reference;
    this.#reference = undefined;
    if (reference) await (await reference).close();
  }

  #instance(): Promise<FastifyInstance> {
    this.#reference ??= (async () => {
      const { default: scalar } = await import('@scalar/fastify-api-reference');
      const reference = Fastify({ logger: false });
      await reference.register(scalar, {
        routePrefix: DOCS_PATH,
        logLevel: 'silent',
        configuration: {
          url: '/openapi.json',
          pageTitle: 'Switchboard API reference',
          // "Test Request" calls this server, whatever the document's example server says.
          servers: [{ url: this.#publicBaseUrl, description: 'This Switchboard server' }],
          // Nothing from the internet: system fonts, no telemetry, no hosted AI or tools.
          withDefaultFonts: false,
          telemetry: false,
          showDeveloperTools: 'never',
          agent: { disabled: true },
          hideClientButton: true,
          authentication: { preferredSecurityScheme: 'apiKey' },
        },
      });
      await reference.ready();
      return reference;
    })().catch((error: unknown) => {
      this.#reference = undefined;
      throw error;
    });
    return this.#reference;
  }
}
