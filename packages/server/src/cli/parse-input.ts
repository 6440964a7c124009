import type { z } from 'zod';
import { domainErrorFromIssues } from '../domain/zod-issues';

/**
 * Validates CLI input with the same contract schema the HTTP API uses, so both surfaces accept
 * exactly the same values.
 * @throws {DomainError} with the API's code and message when the input is invalid.
 */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw domainErrorFromIssues(result.error.issues.map((issue) => ({ part: 'input', issue })));
  }
  return result.data;
}
