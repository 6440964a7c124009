import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the benchmark creates its databases on (`BENCH_POSTGRES_URL`). */
export const BENCH_POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database of the benchmark's own, and how to drop it. */
export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database (the server migrates it when it starts). */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `switchboard_bench_${randomBytes(5).toString('hex')}`;
  await admin((client) => client.query(`create database "${name}"`));
  const url = new URL(BENCH_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      admin((client) => client.query(`drop database if exists "${name}" with (force)`)).then(
        () => undefined,
      ),
  };
}
