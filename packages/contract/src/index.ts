export { type Contract, contract } from './contract';
export { c } from './contract-builder';
export {
  ERROR_CODE_LIST,
  ERROR_CODES,
  type ErrorCode,
  type ErrorStatus,
  isErrorCode,
} from './errors';
export { COMPONENT_NAMES, component, doc, type SchemaDocs } from './openapi-meta';
export type { RouteMetadata } from './route-metadata';
export * from './schemas/common';
export * from './schemas/health';
