export { type BuildAppOverrides, buildApp } from './app';
export { runCli } from './cli/run-cli';
export { type Clock, ManualClock, systemClock } from './clock';
export {
  CONFIG_VARIABLES,
  type Config,
  ConfigError,
  type LoadConfigOptions,
  loadConfig,
} from './config';
export { DomainError, isDomainError } from './domain/domain-error';
export {
  QUICKSTART_NUMBERS,
  type QuickstartResult,
  runQuickstart,
} from './domain/quickstart/quickstart';
export { newId, newUuid } from './ids';
export { MemoryRateLimitStore } from './rate-limit/memory-rate-limit-store';
export type { RateLimitStore, RateLimitWindow } from './rate-limit/rate-limit-store';
export { runServer } from './server-process';
export { openStore } from './store/open-store';
export type { Repositories, Store, UnitOfWork } from './store/store';
export type { Services } from './wiring/services';
export { type Worker, Workers } from './workers';
