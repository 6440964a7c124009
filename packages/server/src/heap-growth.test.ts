import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const moduleUrl = new URL('./heap-growth.ts', import.meta.url).href;

/**
 * A child process that keeps about 40 MB live and churns objects that outlive a scavenge (so
 * they die in the old generation, as a busy server's requests do), after `applyHeapGrowth`;
 * prints its largest heap.
 */
const churn = (percent: number) => `
  const { applyHeapGrowth } = await import(${JSON.stringify(moduleUrl)});
  applyHeapGrowth(${percent});
  const live = Array.from({ length: 400 }, () => new Array(12_500).fill(1.5));
  const ring = new Array(200_000);
  let peak = 0;
  for (let i = 0; i < 3_000_000; i += 1) {
    ring[i % ring.length] = { id: i, text: 'message ' + i, parts: [i, i + 1, i + 2] };
    if (i % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
  }
  console.log(JSON.stringify({ peak, live: live.length }));
`;

async function peakHeap(percent: number): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', churn(percent)],
    { cwd: fileURLToPath(new URL('..', import.meta.url)) },
  );
  return (JSON.parse(stdout) as { peak: number }).peak;
}

describe('applyHeapGrowth', () => {
  it('keeps the heap closer to its live size than V8 does on its own, and 0 changes nothing', async () => {
    const [v8Default, zero, bounded] = await Promise.all([peakHeap(-1), peakHeap(0), peakHeap(10)]);
    expect(bounded).toBeLessThan(v8Default * 0.8);
    expect(zero).toBeGreaterThan(bounded * 1.25);
  }, 60_000);
});
