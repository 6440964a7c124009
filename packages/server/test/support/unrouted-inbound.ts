import type { Instance, UnroutedInboundList } from '@switchboard/contract';
import type { FastifyInstance } from 'fastify';
import { adminHeaders } from './admin-helpers';
import { expectSuccess } from './envelope-assertions';
import { waitFor } from './wait-for';

/** `GET /admin/v1/unrouted-inbound` with `query`, answered. */
export async function listUnrouted(
  app: FastifyInstance,
  query: Record<string, string> = {},
): Promise<UnroutedInboundList> {
  const search = new URLSearchParams(query).toString();
  return expectSuccess<UnroutedInboundList>(
    await app.inject({
      method: 'GET',
      url: `/admin/v1/unrouted-inbound${search ? `?${search}` : ''}`,
      headers: adminHeaders,
    }),
  );
}

/**
 * Waits until no inbound item is kept. A kept item is forgotten just after its event is handed on,
 * so the last one's event can be seen while the item is still listed.
 */
export async function noneKept(app: FastifyInstance): Promise<void> {
  await waitFor(async () => (await listUnrouted(app)).total === 0, 5_000, 'the kept list empty');
}

/** The value of a sample of `GET /metrics` (`name{labels}`), or undefined when absent. */
export async function metricValue(
  app: FastifyInstance,
  sample: string,
): Promise<number | undefined> {
  const body = (await app.inject({ method: 'GET', url: '/metrics', headers: adminHeaders })).body;
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

/** The instance's health warnings after a health check run now. */
export async function instanceWarnings(
  app: FastifyInstance,
  instanceId: string,
): Promise<string[]> {
  await app.services.providers.checkInstanceHealth(instanceId);
  const instance = expectSuccess<Instance>(
    await app.inject({
      method: 'GET',
      url: `/admin/v1/instances/${instanceId}`,
      headers: adminHeaders,
    }),
  );
  return instance.healthWarnings;
}
