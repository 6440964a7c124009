import { c } from './contract-builder';
import { healthContract } from './routes/health';

/**
 * The whole Switchboard API: every route of the server, the SDK and the OpenAPI file.
 * Route keys are stable: they become SDK method names and OpenAPI operation ids.
 */
export const contract = c.router(
  {
    health: healthContract,
  },
  { strictStatusCodes: true },
);

/** The type of the whole API contract. */
export type Contract = typeof contract;
