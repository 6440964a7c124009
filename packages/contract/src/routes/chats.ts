import { c } from '../contract-builder';

/** The Chats routes (placeholder: filled by the contract work). */
export const chatsContract = c.router({});
