import type { APIResponse } from './request';

/**
 * The promise every SDK method returns: awaiting it gives the envelope's `data`;
 * `withResponse()` also gives the `requestId`, status and headers.
 * @example const { data, requestId } = await client.messages.get(id).withResponse();
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #response: Promise<APIResponse<T>>;

  constructor(response: Promise<APIResponse<T>>) {
    this.#response = response;
  }

  /** The data together with the `requestId`, HTTP status and headers of the response. */
  withResponse(): Promise<APIResponse<T>> {
    return this.#response;
  }

  /** Resolves with the envelope's `data`. */
  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is deliberately awaitable.
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#response.then((response) => response.data).then(onfulfilled, onrejected);
  }

  /** Handles a failure, as `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  /** Runs `onfinally` once settled, as `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
