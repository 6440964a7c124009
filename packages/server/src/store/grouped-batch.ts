import type { Store, UnitOfWork } from './store';

/** The batch gathering items, until its unit starts. */
interface OpenBatch<I, R> {
  items: I[];
  results: Promise<readonly R[]>;
}

/**
 * Gathers the items of one moment into one {@link Store.grouped} unit: the first item opens a
 * batch and queues its unit, every item added before that unit starts joins it, and the unit
 * runs `work` over all of them. On SQLite, where a unit waits for the next group commit, the
 * items of a turn (the webhook claims of several receivers answering at once) make one unit, one
 * savepoint and, where `work` can, one statement, instead of one each. On PostgreSQL a grouped
 * unit starts at once, so each item is a batch of its own, as if it were not batched.
 * @example const claims = new GroupedBatch(store, (tx, ids) => claimAll(tx, ids)); await claims.add(id);
 */
export class GroupedBatch<I, R> {
  #open: OpenBatch<I, R> | undefined;

  /**
   * A batcher over `store`: `work` answers one result per item, in the items' order, and its
   * failure fails every item of its batch.
   */
  constructor(
    private readonly store: Pick<Store, 'grouped'>,
    private readonly work: (tx: UnitOfWork, items: readonly I[]) => Promise<readonly R[]>,
  ) {}

  /** Adds `item` to the open batch (opening one when none is) and answers its result. */
  async add(item: I): Promise<R> {
    const open = this.#open;
    if (open) {
      const index = open.items.push(item) - 1;
      return (await open.results)[index] as R;
    }
    const batch: OpenBatch<I, R> = { items: [item], results: Promise.resolve([]) };
    this.#open = batch;
    batch.results = this.store.grouped((tx) => {
      // The batch closes as its unit starts: an item added from now on opens the next one.
      this.#close(batch);
      return this.work(tx, batch.items);
    });
    // A unit that failed before it started must not stay the open batch.
    batch.results.catch(() => this.#close(batch));
    return (await batch.results)[0] as R;
  }

  #close(batch: OpenBatch<I, R>): void {
    if (this.#open === batch) this.#open = undefined;
  }
}
