import type { EventType, SwitchboardEvent } from './generated/api-types';

/** The event of one type. @example type Sent = SwitchboardEventOf<'message.sent'>; */
export type SwitchboardEventOf<Type extends EventType> = Extract<SwitchboardEvent, { type: Type }>;
