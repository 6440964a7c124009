import { c } from '../contract-builder';

/** The Capabilities routes (placeholder: filled by the contract work). */
export const capabilitiesContract = c.router({});
