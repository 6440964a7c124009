// The HTTP side of the fake BlueBubbles: its error, its envelope, and reading requests.
import type { FastifyRequest } from 'fastify';

/** Query parameters of a request. */
export type Query = Record<string, string | undefined>;
/** A JSON request body. */
export type Body = Record<string, unknown>;

/** An HTTP error in BlueBubbles' envelope. */
export class FakeHttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 500 | 504,
    message: string,
    readonly error: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A success answer in BlueBubbles' envelope. */
export function ok(message: string, data: unknown): Record<string, unknown> {
  return { status: 200, message, data };
}

/** A 400 in BlueBubbles' envelope. */
export function badRequest(
  error: string,
  message = "You've made a bad request! Please check your request params & body",
): FakeHttpError {
  return new FakeHttpError(400, message, error);
}

/** A plain Error thrown in a handler, as the error middleware answers it (errorMiddleware.ts:28-36). */
export function serverError(error: string): FakeHttpError {
  return new FakeHttpError(500, 'An unhandled error has occurred!', error);
}

/** `isTruthyBool` of BlueBubbles: `true` or `1`. */
export function isTruthy(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/** A 404 in BlueBubbles' envelope. */
export function notFound(error: string): FakeHttpError {
  return new FakeHttpError(404, 'The requested resource was not found', error);
}

/** A path parameter of a request (empty when absent). */
export function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

/** A non-empty string field of a body, or a 400 naming it. */
export function requiredString(
  body: Body | Record<string, string> | undefined,
  key: string,
): string {
  const value = (body as Body | undefined)?.[key];
  if (typeof value !== 'string' || value === '') throw badRequest(`The ${key} field is required.`);
  return value;
}

/** A non-empty string field of a body, if there is one. */
export function optionalString(body: Body | undefined, key: string): string | undefined {
  const value = body?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The fields and files of a multipart request. */
export interface Multipart {
  /** The text fields, by name. */
  fields: Record<string, string>;
  /** The files, by field name. */
  files: Record<string, { filename: string; mimeType: string; data: Uint8Array }>;
}

/** Reads the fields and files of a multipart request (a 400 when it is not one). */
export async function readMultipart(request: FastifyRequest): Promise<Multipart> {
  const fields: Record<string, string> = {};
  const files: Record<string, { filename: string; mimeType: string; data: Uint8Array }> = {};
  if (!request.isMultipart()) throw badRequest('Expected a multipart/form-data body');
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      files[part.fieldname] = {
        filename: part.filename,
        mimeType: part.mimetype,
        data: new Uint8Array(await part.toBuffer()),
      };
    } else {
      fields[part.fieldname] = String(part.value);
    }
  }
  return { fields, files };
}
