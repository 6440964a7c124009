const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * Parses a duration such as `500ms`, `30s`, `5m`, `2h`, `1d` or a bare number of milliseconds.
 * @throws {Error} when the value is not a duration.
 * @example parseDuration('5m') // 300000
 */
export function parseDuration(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (!match?.[1]) throw new Error(`"${value}" is not a duration (examples: 500ms, 30s, 5m, 2h)`);
  const unit = (match[2] ?? 'ms') as keyof typeof UNIT_MS;
  return Math.round(Number(match[1]) * UNIT_MS[unit]);
}

/**
 * Parses a comma-separated list of durations (see {@link parseDuration}); at least one entry.
 * @example parseDurationList('30s,5m') // [30000, 300000]
 */
export function parseDurationList(value: string): number[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new Error('needs at least one duration');
  return items.map(parseDuration);
}
