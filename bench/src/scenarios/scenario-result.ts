/** How a scenario ended. */
export type ScenarioStatus = 'ok' | 'not-available' | 'error';

/** A target a headline figure is held to. */
export interface Target {
  op: '<' | '<=' | '>=' | '>';
  value: number;
}

/** One headline figure of a scenario. */
export interface Metric {
  name: string;
  value: number;
  unit: string;
  /** The target, when the figure has one. */
  target?: Target;
  /** Whether the target is met (absent when there is no target or in quick mode). */
  met?: boolean;
}

/** A table of details (per round, per query…), rendered as is in the markdown report. */
export interface DetailTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
}

/** What one scenario reports. */
export interface ScenarioResult {
  id: string;
  title: string;
  status: ScenarioStatus;
  /** Why it is not available or failed. */
  reason?: string;
  metrics: Metric[];
  details: DetailTable[];
  /** Observations worth a sentence in the report. */
  notes: string[];
  /** Raw samples (time series…), kept in the JSON only. */
  raw?: Record<string, unknown>;
  /** Wall-clock time the scenario took, seconds. */
  elapsedSec: number;
}

/** Whether `value` meets `target`. */
export function meets(value: number, target: Target): boolean {
  if (!Number.isFinite(value)) return false;
  switch (target.op) {
    case '<':
      return value < target.value;
    case '<=':
      return value <= target.value;
    case '>=':
      return value >= target.value;
    case '>':
      return value > target.value;
  }
}

/** A headline figure, with its target checked. */
export function metric(name: string, value: number, unit: string, target?: Target): Metric {
  return target ? { name, value, unit, target, met: meets(value, target) } : { name, value, unit };
}

/** What a scenario's run returns; the harness adds the elapsed time. */
export type ScenarioOutcome = Omit<ScenarioResult, 'elapsedSec'>;
