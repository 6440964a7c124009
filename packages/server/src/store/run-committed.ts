/**
 * Runs post-commit callbacks (see `UnitOfWork.afterCommit`); one that throws must not turn a
 * committed change into a failure, so its error becomes a process warning.
 */
export function runCommitted(callbacks: ReadonlyArray<() => void>): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      process.emitWarning(
        `afterCommit callback failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
