import { c } from '../contract-builder';

/** The Numbers routes (placeholder: filled by the contract work). */
export const numbersContract = c.router({});
