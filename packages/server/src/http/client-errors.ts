import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '@switchboard/contract';
import { newId } from '../ids';

/** What Node's HTTP parser reports, before any route or hook of Fastify runs. */
interface ClientError extends Error {
  /** `HPE_HEADER_OVERFLOW`, `HPE_INVALID_METHOD`, `ERR_HTTP_REQUEST_TIMEOUT`… */
  code?: string;
}

/** The spec's code and a message for an error of Node's HTTP parser. */
function answerOf(error: ClientError): { code: ErrorCode; message: string } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'HEADERS_TOO_LARGE',
        message:
          'The request line and headers are larger than the server accepts (16 KiB together): shorten the query string or the headers',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive whole in time' };
    default:
      return {
        code: 'VALIDATION_ERROR',
        message: `Malformed HTTP request (${error.code ?? 'unparsable'}): the server could not read it`,
      };
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request
 * (headers or a URL over the size limit, a malformed request line, a request that never ended)
 * is answered in the spec's envelope, with a fresh `requestId`, and the connection closed, as
 * Fastify's own handler does but with its bare body.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  // The peer went away: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { code, message } = answerOf(error);
    const status = ERROR_CODES[code].status;
    const requestId = newId('req');
    const body = JSON.stringify({ success: false, error: { code, message }, requestId });
    socket.write(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  }
  socket.destroy(error);
}
