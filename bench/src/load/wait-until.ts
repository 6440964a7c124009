/**
 * Polls `condition` every `intervalMs` until it holds or `deadline` (a `performance.now()` time)
 * passes; answers whether it held (checked once more at the deadline).
 */
export async function waitUntil(
  condition: () => Promise<boolean>,
  deadline: number,
  intervalMs = 100,
): Promise<boolean> {
  while (performance.now() < deadline) {
    if (await condition()) return true;
    await new Promise((wake) => setTimeout(wake, intervalMs));
  }
  return condition();
}
