import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel, PageQuery, Pagination, Timestamp } from './common';
import { eventAddress } from './event-fields';
import { QueryAddress } from './message-rules';

/** Whether a recipient receives messages from a sender. */
export const OptOutStatus = doc(z.enum(['opted_out', 'opted_in']), {
  description:
    '`opted_out` after STOP (or a carrier’s opt-out report): sends from that sender to that recipient are refused with 403 `RECIPIENT_OPTED_OUT`. `opted_in` after START.',
});

/** What recorded an opt-out or opt-in. */
export const OptOutSource = doc(z.enum(['keyword', 'upstream']), {
  description:
    '`keyword`: the recipient texted STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT (opt-out) or START, YES, UNSTOP (opt-in), or a keyword the upstream’s own opt-out handling reported (Twilio’s Advanced Opt-Out `OptOutType`). `upstream`: the upstream refused a send because the recipient opted out with it (Twilio error 21610).',
});

/** One recipient's opt-out state for one of the customer's sender numbers. */
export const OptOut = component(
  'OptOut',
  z.object({
    from: eventAddress('Your sender number the recipient opted out of.', '+14155550100'),
    recipient: eventAddress('The recipient.', '+14155550123'),
    status: OptOutStatus,
    source: OptOutSource,
    keyword: doc(z.string().nullable(), {
      description: 'The word the recipient texted, upper-cased; null for an upstream report.',
      example: 'STOP',
    }),
    channel: Channel,
    updatedAt: Timestamp,
    createdAt: Timestamp,
  }),
  {
    description:
      'A recipient’s opt-out from one of your sender numbers: it holds across every channel of that sender. Compliance help, not legal advice.',
    example: {
      from: '+14155550100',
      recipient: '+14155550123',
      status: 'opted_out',
      source: 'keyword',
      keyword: 'STOP',
      channel: 'sms',
      updatedAt: '2026-11-21T10:00:00.000Z',
      createdAt: '2026-11-21T10:00:00.000Z',
    },
  },
);
/** A recipient's opt-out state. */
export type OptOut = z.infer<typeof OptOut>;

/** A page of opt-outs. */
export const OptOutList = component(
  'OptOutList',
  z.object({ optOuts: z.array(OptOut), pagination: Pagination }),
  { description: 'A page of opt-out records, most recently changed first.' },
);
/** A page of opt-outs. */
export type OptOutList = z.infer<typeof OptOutList>;

/** `GET /v1/opt-outs` query. */
export const ListOptOutsQuery = PageQuery.extend({
  status: doc(z.enum(['opted_out', 'opted_in', 'all']).default('opted_out'), {
    description: 'Which records: `opted_out` (default), `opted_in`, or `all`.',
  }),
  from: doc(QueryAddress.optional(), {
    description: 'Only this sender number.',
    example: '+14155550100',
  }),
  recipient: doc(QueryAddress.optional(), {
    description: 'Only this recipient (encode `+` as `%2B`).',
    example: '+14155550123',
  }),
}).strict();
/** `GET /v1/opt-outs` query. */
export type ListOptOutsQuery = z.infer<typeof ListOptOutsQuery>;

/** Data of `contact.opted_out` and `contact.opted_in`. */
export const ContactOptOutData = component(
  'ContactOptOutData',
  z.object({
    from: eventAddress('Your sender number.', '+14155550100'),
    recipient: eventAddress('The recipient who opted out or in.', '+14155550123'),
    status: OptOutStatus,
    source: OptOutSource,
    keyword: doc(z.string().nullable(), {
      description: 'The word texted; null for an upstream report.',
    }),
    channel: Channel,
  }),
  { description: 'A recipient opted out of (or back into) messages from one of your numbers.' },
);
/** Data of `contact.opted_out` and `contact.opted_in`. */
export type ContactOptOutData = z.infer<typeof ContactOptOutData>;
