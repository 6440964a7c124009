import type { OperationTypes } from '../generated/route-table';

// Generated beside the route table (`src/generated/route-table.ts`), so that generated/ imports
// nothing of this folder.
export type { OperationTypes, RouteEntry } from '../generated/route-table';

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
