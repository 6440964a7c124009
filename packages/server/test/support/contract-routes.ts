import { contract, type RouteMetadata } from '@switchboard/contract';
import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';

/** One route of the contract, with a concrete URL to call it. */
export interface ContractRouteCase {
  /** `messages.send`, `webhooks.legacy.get`… */
  name: string;
  /** HTTP method. */
  method: AppRoute['method'];
  /** The route's path pattern. */
  path: string;
  /** The path with every parameter filled in. */
  url: string;
  /** The route's metadata. */
  metadata: Partial<RouteMetadata>;
}

const SAMPLE_PARAMS: Record<string, string> = {
  phoneNumber: '+14155550100',
  chatId: 'iMessage;+;chat123',
};

/** A plausible value for a path parameter (authentication runs before validation anyway). */
function sampleParam(name: string): string {
  return encodeURIComponent(SAMPLE_PARAMS[name] ?? '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f');
}

/** Every route of the contract, found by walking the contract object at runtime. */
export function contractRoutes(router: AppRouter = contract, prefix: string[] = []) {
  const routes: ContractRouteCase[] = [];
  for (const [key, entry] of Object.entries(router)) {
    if (isAppRoute(entry)) {
      routes.push({
        name: [...prefix, key].join('.'),
        method: entry.method,
        path: entry.path,
        url: entry.path.replace(/:([A-Za-z0-9_]+)/g, (_match, param: string) => sampleParam(param)),
        metadata: (entry.metadata ?? {}) as Partial<RouteMetadata>,
      });
    } else {
      routes.push(...contractRoutes(entry, [...prefix, key]));
    }
  }
  return routes;
}
