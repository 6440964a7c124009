import type { RouteMetadata } from '@switchboard/contract';
import type { AppRoute } from '@ts-rest/core';
import type { FastifyRequest } from 'fastify';

/** The contract route a request was matched to (ts-rest stores it in the route config). */
function contractRouteOf(request: FastifyRequest): AppRoute | undefined {
  return (request.routeOptions.config as { tsRestRoute?: AppRoute }).tsRestRoute;
}

/** The contract metadata of the matched route; empty for requests outside the contract. */
export function routeMetadataOf(request: FastifyRequest): Partial<RouteMetadata> {
  return (contractRouteOf(request)?.metadata ?? {}) as Partial<RouteMetadata>;
}
