import type { BenchFixtures } from './seed/bench-fixtures';

/** Sizes and durations of one run: the full benchmark, or the quick smoke run of CI. */
export interface BenchMode {
  quick: boolean;
  /** Measured rounds per scenario; figures are the median of them. */
  rounds: number;
  sendAcceptance: {
    connections: number;
    customers: number;
    keysPerCustomer: number;
    warmupSec: number;
    durationSec: number;
  };
  endToEnd: {
    customers: number;
    /** Sends per round. */
    messages: number;
    sendConcurrency: number;
    /** Sending stops after this long even when `messages` were not all accepted. */
    sendWindowSec: number;
    /** How long a round waits, after the last send, for the deliveries to arrive. */
    drainLimitSec: number;
    /** POSTs of the bare undici loop per round. */
    baselinePosts: number;
  };
  /** The scale-out scenario: sizes of each setup's bursts. */
  scaleOut: {
    customers: number;
    messages: number;
    sendConcurrency: number;
    sendWindowSec: number;
    drainLimitSec: number;
  };
  fanout: {
    subscribers: number;
    customers: number;
    eventsPerSec: number;
    durationSec: number;
  };
  growth: {
    smallRows: number;
    largeRows: number;
    connections: number;
    durationSec: number;
  };
  startup: {
    starts: number;
    idleSettleMs: number;
  };
  pruning: {
    /** Messages in the database being pruned. */
    rows: number;
    connections: number;
    loadSec: number;
  };
  media: {
    /** Length of the timed voice memo. */
    memoSeconds: number;
    /** Timed conversions (and as many as-is sends as their baseline). */
    runs: number;
    /** Conversions kept running while acceptance is measured. */
    concurrentTranscodes: number;
    /** Length of each of those memos (long enough to outlast the load run). */
    busyMemoSeconds: number;
    connections: number;
    loadSec: number;
  };
}

/** The full benchmark (`pnpm bench`): the sizes, three rounds. */
export const FULL_MODE: BenchMode = {
  quick: false,
  rounds: 3,
  sendAcceptance: {
    connections: 50,
    customers: 10,
    keysPerCustomer: 5,
    warmupSec: 3,
    durationSec: 10,
  },
  endToEnd: {
    customers: 16,
    messages: 5_000,
    sendConcurrency: 32,
    sendWindowSec: 10,
    drainLimitSec: 60,
    baselinePosts: 15_000,
  },
  scaleOut: {
    customers: 8,
    messages: 3_000,
    sendConcurrency: 32,
    sendWindowSec: 10,
    drainLimitSec: 60,
  },
  fanout: { subscribers: 1_000, customers: 10, eventsPerSec: 500, durationSec: 10 },
  growth: { smallRows: 1_000, largeRows: 1_000_000, connections: 4, durationSec: 4 },
  startup: { starts: 3, idleSettleMs: 1_000 },
  pruning: { rows: 200_000, connections: 50, loadSec: 8 },
  media: {
    memoSeconds: 30,
    runs: 5,
    concurrentTranscodes: 20,
    busyMemoSeconds: 90,
    connections: 50,
    loadSec: 8,
  },
};

/** The smoke run (`pnpm bench --quick`, CI): every scenario once, tiny, nothing asserted on speed. */
export const QUICK_MODE: BenchMode = {
  quick: true,
  rounds: 1,
  sendAcceptance: {
    connections: 10,
    customers: 2,
    keysPerCustomer: 2,
    warmupSec: 0,
    durationSec: 1,
  },
  endToEnd: {
    customers: 2,
    messages: 40,
    sendConcurrency: 8,
    sendWindowSec: 5,
    drainLimitSec: 20,
    baselinePosts: 300,
  },
  scaleOut: { customers: 2, messages: 30, sendConcurrency: 6, sendWindowSec: 5, drainLimitSec: 20 },
  fanout: { subscribers: 50, customers: 2, eventsPerSec: 100, durationSec: 1 },
  growth: { smallRows: 1_000, largeRows: 10_000, connections: 2, durationSec: 1 },
  startup: { starts: 1, idleSettleMs: 300 },
  pruning: { rows: 10_000, connections: 10, loadSec: 1 },
  media: {
    memoSeconds: 3,
    runs: 1,
    concurrentTranscodes: 2,
    busyMemoSeconds: 3,
    connections: 10,
    loadSec: 1,
  },
};

/** What every scenario gets from the harness. */
export interface ScenarioContext {
  mode: BenchMode;
  /** Databases shared between scenarios of the run. */
  fixtures: BenchFixtures;
  /** A folder of its own for databases and scratch files. */
  workDir: string;
  /** When set, servers write CPU profiles here. */
  profileDir?: string;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}
