import type { Operations } from '../generated/api-types';

/** The types of one operation: its body, its query and the `data` of its success answer. */
export interface OperationTypes {
  body: unknown;
  query: unknown;
  data: unknown;
}

/**
 * One operation as the SDK calls it: generated from the contract (`src/generated/route-table.ts`).
 * `Types` only carries the operation's types to the call helpers; it has no run-time value.
 */
export interface RouteEntry<Types extends OperationTypes = OperationTypes> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The status of the success answer. */
  readonly status: number;
  /** False for the routes that need no API key. */
  readonly auth: boolean;
  readonly types?: Types;
}

type TableOf<Node> = {
  [Key in keyof Node]: Node[Key] extends OperationTypes
    ? RouteEntry<Node[Key]>
    : TableOf<Node[Key]>;
};

/** The generated route table: one {@link RouteEntry} per operation, shaped like {@link Operations}. */
export type RouteTable = TableOf<Operations>;

/** The request body a route accepts (defaulted fields optional). */
export type RouteBody<Route extends OperationTypes> = Route['body'];

/** The query a route accepts (defaulted fields optional). */
export type RouteQuery<Route extends OperationTypes> = Route['query'];

/** The `data` of a route's success envelope (the whole body for unenveloped routes). */
export type RouteData<Route extends OperationTypes> = Route['data'];

/** The item type of a paginated route whose data holds `Key: Item[]` and `pagination`. */
export type RouteItem<
  Route extends OperationTypes,
  Key extends keyof RouteData<Route>,
> = RouteData<Route>[Key] extends readonly (infer Item)[] ? Item : never;
