import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far V8 lets the heap grow past what survived the last full collection before it
 * collects again, as a percentage (`HEAP_GROWING_PERCENT`): V8 then grows the heap limit by a
 * factor of `1 + percent / 100` instead of its own factor (up to 4 when collections are fast). A
 * server under load promotes short-lived request objects, so with V8's factor its heap grew to
 * several times what was live before a full collection (the send-acceptance benchmark peaked at
 * 400–450 MB of RSS with under 100 MB live); 30 % kept it near 230 MB at the same sends/s, for
 * about 5 % more CPU per message end to end (full collections run more often). 0 leaves V8's own
 * heuristics. The flag is process-wide, so only the server process sets it.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.trunc(percent)}`);
}
