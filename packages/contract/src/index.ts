export { type Contract, contract } from './contract';
export { c } from './contract-builder';
export {
  ERROR_CODE_LIST,
  ERROR_CODES,
  type ErrorCode,
  type ErrorStatus,
  isErrorCode,
} from './errors';
export * from './events';
export { COMPONENT_NAMES, component, doc, type SchemaDocs } from './openapi-meta';
export type { RouteMetadata } from './route-metadata';
export * from './schemas/admin';
export * from './schemas/capability';
export * from './schemas/chat';
export * from './schemas/common';
export * from './schemas/health';
export * from './schemas/instance';
export * from './schemas/message';
export * from './schemas/number';
export * from './schemas/sandbox';
export * from './schemas/webhook';
export * from './schemas/whatsapp-session';
