/**
 * Reads an environment variable on runtimes that have `process.env` (Node, Bun, Deno's Node
 * compatibility); undefined elsewhere, such as browsers and Workers.
 */
export function readEnv(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const value = env?.[name]?.trim();
  return value === '' ? undefined : value;
}
