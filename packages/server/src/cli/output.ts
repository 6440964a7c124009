/** Where a CLI command writes. */
export interface CliStreams {
  /** Results. */
  stdout: { write(text: string): unknown };
  /** Errors and hints. */
  stderr: { write(text: string): unknown };
  /** Where secrets are read from when a command prompts for them (default: the process's). */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** Prints `value` as pretty JSON (with `--json`) or as the given human-readable text. */
export function emit(
  streams: CliStreams,
  json: boolean,
  value: unknown,
  human: () => string,
): void {
  streams.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}

/** Aligns rows into columns; the first row is the header. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
        .join('  '),
    )
    .join('\n');
}
