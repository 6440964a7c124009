import { contract } from '@switchboard/contract';
import { Switchboard } from '@switchboard/sdk';
import { initClient } from '@ts-rest/core';

/**
 * The customer API's typed client (the SDK) for `token` on this server. No retries: a person is
 * waiting and sees the error instead.
 */
export function customerClient(token: string | undefined): Switchboard {
  return new Switchboard({ apiKey: token, baseUrl: window.location.origin, maxRetries: 0 });
}

/**
 * The operator API's typed client: ts-rest's client over the contract's `admin` router, so every
 * path, body and answer is the contract's own type.
 */
export function operatorClient(token: string) {
  return initClient(contract.admin, {
    baseUrl: window.location.origin,
    baseHeaders: { authorization: `Bearer ${token}` },
    throwOnUnknownStatus: false,
  });
}

/**
 * The customer API's message routes through ts-rest's client over the contract's `messages`
 * router, for the routes the SDK has no method for yet (the routing trace).
 */
export function messageRoutesClient(token: string) {
  return initClient(contract.messages, {
    baseUrl: window.location.origin,
    baseHeaders: { authorization: `Bearer ${token}` },
    throwOnUnknownStatus: false,
  });
}

/** An operator answer: its status and body, as ts-rest returns it. */
interface Answer {
  status: number;
  body: unknown;
}

/** Success answers of `answer`, by status. */
type Ok<A extends Answer, S extends number> = Extract<A, { status: S }>['body'];

/**
 * The `data` of an operator answer with status `expected`; otherwise throws with the envelope's
 * code and message, which the page shows.
 */
export function dataOf<A extends Answer, S extends number>(
  answer: A,
  expected: S,
): Ok<A, S> extends { data: infer D } ? D : never {
  if (answer.status === expected) {
    return (answer.body as { data: never }).data;
  }
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error;
  throw new Error(
    error ? `${error.code ?? 'ERROR'}: ${error.message ?? ''}` : `HTTP ${answer.status}`,
  );
}
