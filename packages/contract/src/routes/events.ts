import { c } from '../contract-builder';

/** The Events routes (placeholder: filled by the contract work). */
export const eventsContract = c.router({});
