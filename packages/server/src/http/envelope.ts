import { ERROR_CODES, type ErrorCode } from '@switchboard/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The success envelope of a response. */
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  requestId: string;
}

/**
 * A ts-rest handler result in the success envelope.
 * @example return ok(request, 200, numbers.map(toSenderNumberView));
 */
export function ok<const S extends number, T>(
  request: FastifyRequest,
  status: S,
  data: T,
): { status: S; body: SuccessEnvelope<T> } {
  return { status, body: { success: true, data, requestId: request.id } };
}

/** The failure envelope `{success: false, error: {code, message}, requestId}`. */
function failureBody(request: FastifyRequest, code: ErrorCode, message: string) {
  return { success: false as const, error: { code, message }, requestId: request.id };
}

/** Sends the failure envelope with the code's HTTP status. */
export function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
): FastifyReply {
  return reply.status(ERROR_CODES[code].status).send(failureBody(request, code, message));
}
