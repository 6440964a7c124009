/** Metadata every route of the contract carries (read by the OpenAPI generator and the server). */
export interface RouteMetadata {
  /** OpenAPI tag. */
  tag: string;
  /**
   * Who may call the route: a customer API key (absent, the default); nobody in particular
   * (`false`: health, signed attachment URLs); the operator token (`'admin'`); or the operator
   * token or `METRICS_TOKEN`, checked by the route itself, unless the operator opened it with
   * `METRICS_OPEN=true` (`'metrics'`: `GET /metrics`).
   */
  auth?: false | 'admin' | 'metrics';
  /** False for the routes exempt from the per-key rate limit. */
  rateLimited?: false;
  /** Legacy routes that keep working but are deprecated. */
  deprecated?: true;
}
