/** Metadata every route of the contract carries (read by the OpenAPI generator and the server). */
export interface RouteMetadata {
  /** OpenAPI tag. */
  tag: string;
  /** False for the routes that need no API key (health, signed attachment URLs). */
  auth?: false | 'admin';
  /** False for the routes exempt from the per-key rate limit. */
  rateLimited?: false;
  /** Legacy routes that keep working but are deprecated. */
  deprecated?: true;
}
