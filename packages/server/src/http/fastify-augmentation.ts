import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Store } from '../store/store';
import type { Services } from '../wiring/services';
import type { Workers } from '../workers';
import type { RequestAuth } from './authentication';

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration. */
    config: Config;
    /** The persistence layer. */
    store: Store;
    /** The time source. */
    clock: Clock;
    /** The domain services. */
    services: Services;
    /** Background workers, stopped on close before the database closes. */
    workers: Workers;
  }

  interface FastifyRequest {
    /** The authenticated customer and key; null on routes without API-key authentication. */
    auth: RequestAuth | null;
    /** The request's correlation id (`cor_<32 hex>`), echoed in `X-Correlation-Id`. */
    correlationId: string;
  }
}
