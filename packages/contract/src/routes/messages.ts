import { c } from '../contract-builder';

/** The Messages routes (placeholder: filled by the contract work). */
export const messagesContract = c.router({});
