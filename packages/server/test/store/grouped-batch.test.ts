import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupedBatch } from '../../src/store/grouped-batch';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store, UnitOfWork } from '../../src/store/store';
import { tempDir } from '../support/test-app';

let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

function openStore(): SqliteStore {
  store = openSqliteStore(join(tempDir(), 'batch.db'));
  return store;
}

/** A batcher whose unit records the items it ran with and answers each doubled. */
function doubling(over: Pick<Store, 'grouped'>) {
  const units: number[][] = [];
  const batch = new GroupedBatch(over, async (_tx, items: readonly number[]) => {
    units.push([...items]);
    return items.map((item) => item * 2);
  });
  return { batch, units };
}

describe('GroupedBatch', () => {
  it('runs the items added before its unit starts in that one unit, each with its own result', async () => {
    const { batch, units } = doubling(openStore());
    const results = await Promise.all([1, 2, 3, 4].map((item) => batch.add(item)));
    expect(results).toEqual([2, 4, 6, 8]);
    expect(units).toEqual([[1, 2, 3, 4]]);
    // Once the unit has run, the next item opens a batch of its own.
    expect(await batch.add(5)).toBe(10);
    expect(units).toEqual([[1, 2, 3, 4], [5]]);
  });

  it('reads within the moment’s group commit, and an item added while its unit runs joins the next', async () => {
    const sqlite = openStore();
    const seen: string[][] = [];
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch = new GroupedBatch(sqlite, async (tx: UnitOfWork, ids: readonly string[]) => {
      seen.push([...ids]);
      started();
      await gate;
      const found = [];
      for (const id of ids) found.push((await tx.customers.findById(id))?.name);
      return found;
    });
    await sqlite.customers.insert({
      id: 'c1',
      name: 'One',
      settings: { otpHandling: 'suppress', optOutHandling: 'gateway' },
      createdAt: new Date(0),
    });
    const first = Promise.all([batch.add('c1'), batch.add('c2')]);
    await running;
    const late = batch.add('c1');
    release();
    expect(await first).toEqual(['One', undefined]);
    expect(await late).toBe('One');
    expect(seen).toEqual([['c1', 'c2'], ['c1']]);
  });

  it('fails every item of a failed unit, and the next batch runs afresh', async () => {
    let fail = true;
    const batch = new GroupedBatch(openStore(), async (_tx, items: readonly number[]) => {
      if (fail) throw new Error('unit failed');
      return items;
    });
    const failed = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await Promise.all([batch.add(3), batch.add(4)])).toEqual([3, 4]);
  });

  it('makes each item a unit of its own where a grouped unit starts at once (PostgreSQL)', async () => {
    const sqlite = openStore();
    // PostgreSQL's grouped(): the work runs at once, over the store itself.
    const immediate: Pick<Store, 'grouped'> = { grouped: (work) => work(sqlite) };
    const { batch, units } = doubling(immediate);
    expect(await Promise.all([batch.add(1), batch.add(2)])).toEqual([2, 4]);
    expect(units).toEqual([[1], [2]]);
  });

  it('does not keep a batch open whose unit was refused before it started', async () => {
    let refuse = true;
    const sqlite = openStore();
    const refusing: Pick<Store, 'grouped'> = {
      grouped: (work) => (refuse ? Promise.reject(new Error('refused')) : sqlite.grouped(work)),
    };
    const { batch, units } = doubling(refusing);
    await expect(batch.add(1)).rejects.toThrow('refused');
    refuse = false;
    expect(await batch.add(2)).toBe(4);
    expect(units).toEqual([[2]]);
  });
});
