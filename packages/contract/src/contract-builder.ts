import { initContract } from '@ts-rest/core';

/** The ts-rest contract builder every route file uses. */
export const c = initContract();
