import type { AppRoute, ClientInferRequest, ClientInferResponseBody } from '@ts-rest/core';

type SuccessStatus = 200 | 201 | 202 | 204;

type Unwrap<Body> = Body extends { success: true; data: infer Data } ? Data : Body;

/** The request body a route accepts (its zod input type). */
export type RouteBody<Route extends AppRoute> =
  ClientInferRequest<Route> extends { body: infer Body } ? Body : never;

/** The query a route accepts (its zod input type, so defaulted fields are optional). */
export type RouteQuery<Route extends AppRoute> =
  ClientInferRequest<Route> extends { query: infer Query } ? Query : never;

/** The `data` of a route's success envelope (the whole body for unenveloped routes). */
export type RouteData<Route extends AppRoute> = Unwrap<
  ClientInferResponseBody<Route, Extract<keyof Route['responses'], SuccessStatus>>
>;

/** The item type of a paginated route whose data holds `Key: Item[]` and `pagination`. */
export type RouteItem<
  Route extends AppRoute,
  Key extends keyof RouteData<Route>,
> = RouteData<Route>[Key] extends readonly (infer Item)[] ? Item : never;
