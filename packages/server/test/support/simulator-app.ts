import type { SwitchboardEvent } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp, type TestAppOptions } from './test-app';

/** The settings of apps driven through the simulator: instant steps, quiet logs, no rate limit. */
export const SIMULATOR_TEST_ENV: Readonly<Record<string, string>> = {
  SIMULATOR_STEP_MS: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000',
};

/** {@link buildTestApp} with {@link SIMULATOR_TEST_ENV} (which `options.env` overrides). */
export function buildSimulatorTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  return buildTestApp({ ...options, env: { ...SIMULATOR_TEST_ENV, ...options.env } });
}

/** Every event recorded for `customerId` from now on, parsed, in order (the in-process bus). */
export function recordedEvents(app: FastifyInstance, customerId: string): SwitchboardEvent[] {
  const events: SwitchboardEvent[] = [];
  app.services.events.bus.subscribe(customerId, (event) => {
    events.push(JSON.parse(event.payload) as SwitchboardEvent);
  });
  return events;
}
