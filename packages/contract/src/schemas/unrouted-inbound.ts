import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Channel, Timestamp, Uuid } from './common';

/** Why an inbound item was kept instead of routed. */
export const UnroutedReason = doc(z.enum(['address_not_assigned', 'address_on_other_instance']), {
  description:
    '`address_not_assigned`: no customer has the receiving address. `address_on_other_instance`: a customer has it, served by another instance than the one that received the item (an instance misconfigured, or a number moved).',
});

/** An inbound item the gateway kept because no customer could receive it. */
export const UnroutedInboundItem = component(
  'UnroutedInboundItem',
  z.object({
    id: doc(z.string(), {
      description: '`unr_<uuid>`.',
      example: 'unr_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
    }),
    instanceId: Uuid,
    address: doc(z.string(), {
      description:
        'The receiving address as the upstream named it (a phone number, an e-mail address of the Mac, a WhatsApp JID).',
      example: '+14155550199',
    }),
    kind: doc(z.string(), {
      description:
        'What it is: `message.inbound`, `message.changed`, `message.reaction`, `message.audio_kept`, `chat.event`, `facetime.incoming` or `facetime.status`.',
      example: 'message.inbound',
    }),
    reason: UnroutedReason,
    from: doc(z.string().nullable(), {
      description: 'The contact it came from, when it names one.',
      example: '+14155550123',
    }),
    channel: Channel,
    receivedAt: Timestamp,
    expiresAt: doc(Timestamp, {
      description:
        'When it is forgotten unless delivered or discarded first (`UNROUTED_INBOUND_RETENTION_MS` after `receivedAt`).',
    }),
  }),
  {
    description:
      'An inbound message, reaction or event an upstream handed the gateway for an address no customer has on that instance. It is delivered to the customer, in the order items came, once the address is assigned to them on that instance.',
    example: {
      id: 'unr_0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
      instanceId: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e60',
      address: '+14155550199',
      kind: 'message.inbound',
      reason: 'address_not_assigned',
      from: '+14155550123',
      channel: 'imessage',
      receivedAt: '2026-12-02T05:00:00.000Z',
      expiresAt: '2027-01-01T05:00:00.000Z',
    },
  },
);
/** A kept inbound item. */
export type UnroutedInboundItem = z.infer<typeof UnroutedInboundItem>;

/** The operator's list of kept inbound items. */
export const UnroutedInboundList = component(
  'UnroutedInboundList',
  z.object({
    items: z.array(UnroutedInboundItem),
    total: doc(z.number().int(), {
      description: 'How many items match the filters (the list shows at most `limit`).',
    }),
  }),
  { description: 'Kept inbound items, oldest first.' },
);
/** The operator's list of kept inbound items. */
export type UnroutedInboundList = z.infer<typeof UnroutedInboundList>;

/** Filters of the kept inbound items. */
const filters = {
  instanceId: doc(Uuid.optional(), { description: 'Only those this instance received.' }),
  address: doc(z.string().min(1).max(320).optional(), {
    description: 'Only those to this receiving address (encode `+` as `%2B`).',
    example: '+14155550199',
  }),
};

/** `GET /admin/v1/unrouted-inbound` query. */
export const ListUnroutedInboundQuery = z
  .object({
    ...filters,
    limit: doc(z.coerce.number().int().min(1).max(500).default(100), {
      description: 'How many items to show at most, 1 to 500.',
      example: 100,
    }),
  })
  .strict();
/** `GET /admin/v1/unrouted-inbound` query. */
export type ListUnroutedInboundQuery = z.infer<typeof ListUnroutedInboundQuery>;

/** `POST /admin/v1/unrouted-inbound/discard` body. */
export const DiscardUnroutedInboundRequest = z
  .object(filters)
  .strict()
  .refine((body) => body.instanceId !== undefined || body.address !== undefined, {
    message: 'give instanceId, address or both: discarding everything takes them one by one',
  });
/** `POST /admin/v1/unrouted-inbound/discard` body. */
export type DiscardUnroutedInboundRequest = z.infer<typeof DiscardUnroutedInboundRequest>;

/** `POST /admin/v1/unrouted-inbound/discard` answer. */
export const UnroutedInboundDiscarded = z.object({
  discarded: doc(z.number().int(), { description: 'How many items were forgotten.' }),
});

/** `DELETE /admin/v1/unrouted-inbound/:id` path parameters. */
export const UnroutedInboundIdParams = z.object({ id: z.string().min(1).max(100) });

/** `DELETE /admin/v1/unrouted-inbound/:id` answer. */
export const UnroutedInboundItemDiscarded = z.object({
  id: z.string(),
  discarded: z.literal(true),
});
