import { z } from 'zod';
import { doc } from '../schema-annotations';

/** An event id: `evt_` followed by a unique suffix. Receivers deduplicate on it. */
export const EventId = doc(z.string().regex(/^evt_[\w-]+$/), {
  description: 'Event id, `evt_…`; receivers deduplicate on it.',
  example: 'evt_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
});

/** Fresh address schemas, so each field carries its own description. */
export function eventAddress(description: string, example: string) {
  return doc(z.string().min(1), { description, example });
}
