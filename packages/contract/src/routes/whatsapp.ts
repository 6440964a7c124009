import { c } from '../contract-builder';

/** The WhatsApp routes (placeholder: filled by the contract work). */
export const whatsappContract = c.router({});
