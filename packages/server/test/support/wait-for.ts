/**
 * Waits (real time, checked every 5 ms) until `condition` answers something other than
 * `undefined` or `false`, and answers it; fails after `timeoutMs` (15 s by default: it returns as
 * soon as the condition holds, and a loaded CI host can take seconds), naming `what`.
 */
export async function waitFor<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what: string | (() => string) = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
