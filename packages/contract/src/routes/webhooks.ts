import { c } from '../contract-builder';

/** The Webhooks routes (placeholder: filled by the contract work). */
export const webhooksContract = c.router({});
