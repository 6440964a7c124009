import { APIPromise } from '../core/api-promise';
import { SwitchboardError } from '../core/errors';
import { Page, type PagePromise, paginate } from '../core/pagination';
import type { QueryValue, RequestOptions, RequestSpec, Transport } from '../core/request';
import type { OperationTypes, RouteData, RouteEntry, RouteItem } from './route-types';

/** The parts of a call to one contract route. */
export interface RouteInput {
  /** Values of the route's `:name` path parameters (URL-encoded here). */
  params?: Readonly<Record<string, string>>;
  /** The query parameters. */
  query?: object | undefined;
  /** The JSON body. */
  body?: unknown;
  /** Overrides the default (every method but POST) for routes that are safe to repeat. */
  idempotent?: boolean;
  /** False for routes answered outside the envelope (`/health`). */
  envelope?: false;
  /** True for routes that answer a file, returned as raw bytes (implies no envelope). */
  binary?: true;
}

/** Calls a contract route and resolves with the `data` its contract declares. */
export function callRoute<Route extends OperationTypes>(
  transport: Transport,
  route: RouteEntry<Route>,
  input: RouteInput,
  options: RequestOptions | undefined,
): APIPromise<RouteData<Route>> {
  // Starting inside a promise turns a synchronous throw (an empty path parameter, a missing API
  // key) into a rejection, so callers handle every failure in one place.
  return new APIPromise(
    Promise.resolve().then(() =>
      transport.request<RouteData<Route>>(routeSpec(route, input), options),
    ),
  );
}

/**
 * Calls a cursor-paginated route (data `{ [itemsKey]: Item[], pagination }`) and returns the
 * first page, which fetches the next ones with the same query.
 */
export function listRoute<
  Route extends OperationTypes,
  Key extends keyof RouteData<Route> & string,
>(
  transport: Transport,
  route: RouteEntry<Route>,
  itemsKey: Key,
  input: RouteInput,
  options: RequestOptions | undefined,
): PagePromise<RouteItem<Route, Key>> {
  type Item = RouteItem<Route, Key>;
  const fetchPage = async (cursor: string | undefined) => {
    const query = cursor === undefined ? input.query : { ...input.query, cursor };
    const response = await transport.request<ListData<Item>>(
      routeSpec(route, { ...input, query }),
      options,
    );
    const items = response.data[itemsKey];
    if (!Array.isArray(items)) {
      throw new SwitchboardError(`Expected "${itemsKey}" to be a list in ${route.path}.`, {
        status: response.status,
        headers: response.headers,
        body: response.data,
        requestId: response.requestId,
      });
    }
    const page = new Page<Item>(
      {
        items,
        hasMore: response.data.pagination?.hasMore ?? false,
        nextCursor: response.data.pagination?.nextCursor ?? null,
      },
      fetchPage,
    );
    return { ...response, data: page };
  };
  return paginate(() => Promise.resolve().then(() => fetchPage(undefined)));
}

type ListData<Item> = Record<string, Item[] | undefined> & {
  pagination?: { hasMore: boolean; nextCursor: string | null };
};

/** Resolves a route and its input to the request the transport sends. */
export function routeSpec(route: RouteEntry, input: RouteInput): RequestSpec {
  return {
    method: route.method,
    path: fillPath(route.path, input.params ?? {}),
    query: input.query as Readonly<Record<string, QueryValue>> | undefined,
    body: input.body,
    idempotent: input.idempotent ?? route.method !== 'POST',
    envelope: input.binary === true ? false : (input.envelope ?? true),
    auth: route.auth,
    binary: input.binary,
  };
}

/**
 * Replaces each `:name` of a contract path with its URL-encoded value. An empty value is
 * refused: `/v1/messages/` would silently reach the list route instead of failing.
 */
export function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new SwitchboardError(`Path parameter "${name}" must be a non-empty string.`);
    }
    return encodeURIComponent(value);
  });
}
