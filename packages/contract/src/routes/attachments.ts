import { c } from '../contract-builder';

/** The Attachments routes (placeholder: filled by the contract work). */
export const attachmentsContract = c.router({});
