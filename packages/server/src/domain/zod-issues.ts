import { ERROR_CODE_PARAM, type ErrorCode, isErrorCode } from '@switchboard/contract';
import type { ZodIssue } from 'zod';
import { DomainError } from './domain-error';

/** How many issues a VALIDATION_ERROR message lists before it stops. */
const MAX_LISTED_ISSUES = 3;

/** A zod issue and the part of the input it is about (`body`, `query`, `path`…). */
export interface LocatedIssue {
  /** Where the input came from; names the field when the issue's path is empty. */
  part: string;
  /** The issue. */
  issue: ZodIssue;
}

/** `content.mediaUrls[0]` from a zod path, or the input part when the path is empty. */
function fieldName(path: (string | number)[], part: string): string {
  if (path.length === 0) return part;
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

/** The spec error code a refinement attached to the issue (see `addCodedIssue`). */
function codeOf(issue: ZodIssue): ErrorCode | undefined {
  const code = issue.code === 'custom' ? issue.params?.[ERROR_CODE_PARAM] : undefined;
  return isErrorCode(code) ? code : undefined;
}

/**
 * The spec error for failed validation: the code a schema refinement names
 * (`INVALID_PHONE_NUMBER`, `INVALID_REQUEST`…) when one does, otherwise `VALIDATION_ERROR` with a
 * message naming each failing field.
 * @example domainErrorFromIssues(result.error.issues.map((issue) => ({ part: 'body', issue })))
 */
export function domainErrorFromIssues(issues: LocatedIssue[]): DomainError {
  for (const { part, issue } of issues) {
    const code = codeOf(issue);
    if (code) return new DomainError(code, `${fieldName(issue.path, part)}: ${issue.message}`);
  }
  const listed = issues
    .slice(0, MAX_LISTED_ISSUES)
    .map(({ part, issue }) => `${fieldName(issue.path, part)}: ${issue.message}`);
  if (issues.length > MAX_LISTED_ISSUES) {
    listed.push(`and ${issues.length - MAX_LISTED_ISSUES} more`);
  }
  return new DomainError('VALIDATION_ERROR', listed.join('; ') || 'The request is invalid');
}
