import type { RequestValidationError } from '@ts-rest/fastify';
import type { ZodError } from 'zod';
import type { DomainError } from '../domain/domain-error';
import { domainErrorFromIssues } from '../domain/zod-issues';

/**
 * Turns ts-rest's request validation failure into the spec's error (see
 * {@link domainErrorFromIssues}); path parameters first, then headers, query and body.
 */
export function toValidationDomainError(error: RequestValidationError): DomainError {
  const parts: [string, ZodError | null][] = [
    ['path', error.pathParams],
    ['headers', error.headers],
    ['query', error.query],
    ['body', error.body],
  ];
  return domainErrorFromIssues(
    parts.flatMap(([part, zodError]) => (zodError?.issues ?? []).map((issue) => ({ part, issue }))),
  );
}
