import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DomainError } from '../domain/domain-error';
import type { CliEnvironment } from './cli-context';

/**
 * Reads the value of one `--secret <field>=<source>` option. Sources: `env:NAME` (an environment
 * variable), `file:PATH` (a file's content, trailing newline dropped) or `prompt` (typed at the
 * terminal without echo, or the next line of standard input when it is not a terminal). Secrets
 * never come from the command line itself: it lands in shell history and `ps`.
 * @throws {DomainError} VALIDATION_ERROR for a malformed option or an empty value.
 */
export async function readSecretOption(
  option: string,
  environment: CliEnvironment,
): Promise<[field: string, value: string]> {
  const match = /^([A-Za-z][A-Za-z0-9]*)=(env:.+|file:.+|prompt)$/.exec(option);
  if (!match?.[1] || !match[2]) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `--secret ${option}: expected <field>=env:NAME, <field>=file:PATH or <field>=prompt`,
    );
  }
  const [, field, source] = match;
  let value: string | undefined;
  if (source.startsWith('env:')) value = environment.env[source.slice(4)];
  else if (source.startsWith('file:')) {
    try {
      value = readFileSync(source.slice(5), 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `--secret ${field}: cannot read ${source.slice(5)}: ${(error as Error).message}`,
      );
    }
  } else value = await prompt(`${field}: `, environment);
  if (value === undefined || value === '') {
    throw new DomainError('VALIDATION_ERROR', `--secret ${field}: ${source} gave no value`);
  }
  return [field, value];
}

/** Reads one line from the terminal without echoing it (or from standard input). */
async function prompt(question: string, environment: CliEnvironment): Promise<string> {
  const input = environment.stdin ?? process.stdin;
  const interactive = input.isTTY === true;
  if (interactive) environment.stderr.write(question);
  const lines = createInterface({
    input,
    // Nothing typed is echoed: the answer goes nowhere.
    output: undefined,
    terminal: interactive,
  });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
    if (interactive) environment.stderr.write('\n');
  }
}
