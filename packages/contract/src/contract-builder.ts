import { initContract } from '@ts-rest/core';

/** The ts-rest contract builder every route file uses. */
// Annotated: the inferred type names a symbol ts-rest does not export, which stops the
// declaration build (TS4023).
export const c: ReturnType<typeof initContract> = initContract();
