/** A fake upstream that a manual-trial command runs until it is interrupted. */
interface StoppableFake {
  /** Closes the fake's server. */
  stop(): Promise<void>;
}

/** Stops `fake` and exits on Ctrl-C or SIGTERM: the end of every `pnpm fake:*` command. */
export function stopOnSignal(fake: StoppableFake): void {
  const stop = async () => {
    await fake.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
