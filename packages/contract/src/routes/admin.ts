import { c } from '../contract-builder';

/** The Admin routes (placeholder: filled by the contract work). */
export const adminContract = c.router({});
