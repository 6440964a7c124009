import { z } from 'zod';
import { component, extendApi } from '../schema-annotations';
import { METADATA_LIMITS } from './message-rules';
import { type KnownReactionType, TAPBACK_TYPES, WHATSAPP_TAPBACK_EMOJI } from './tapbacks';
// ---------------------------------------------------------------------------------------------
// Shared enums and values
// ---------------------------------------------------------------------------------------------

/** The status values of a message: the spec's eight plus `cancelled`. */
export const MESSAGE_STATUSES = [
  'queued',
  'pending',
  'scheduled',
  'sent',
  'delivered',
  'read',
  'failed',
  'unsent',
  'cancelled',
] as const;

/** Lifecycle status of a message. */
export const MessageStatus = component('MessageStatus', z.enum(MESSAGE_STATUSES), {
  description:
    'Lifecycle status. Moves forward only: scheduled → queued → pending → sent → delivered → read; `failed` from queued, pending or sent; `unsent` from sent, delivered or read; `cancelled` from scheduled.',
});
/** A message status. */
export type MessageStatus = z.infer<typeof MessageStatus>;

/** The iMessage effects: five screen effects and six bubble effects. */
export const MESSAGE_EFFECTS = [
  'fireworks',
  'balloons',
  'confetti',
  'lasers',
  'spotlight',
  'slam',
  'loud',
  'gentle',
  'invisibleInk',
  'echo',
  'love',
] as const;

/** An iMessage effect. */
export const MessageEffect = component('MessageEffect', z.enum(MESSAGE_EFFECTS), {
  description:
    'iMessage effect. Screen: `fireworks`, `balloons`, `confetti`, `lasers`, `spotlight`. Bubble: `slam`, `loud`, `gentle`, `invisibleInk`, `echo`, `love`. Ignored when the message falls back to sms, dropped on whatsapp.',
});
/** An iMessage effect. */
export type MessageEffect = z.infer<typeof MessageEffect>;

// The lists in the ReactionType description, written from the constants above.
const TAPBACK_LIST = TAPBACK_TYPES.map((type) => `\`${type}\``).join(', ');
const WHATSAPP_EMOJI_LIST = TAPBACK_TYPES.map(
  (type) => `${type} ${WHATSAPP_TAPBACK_EMOJI[type]}`,
).join(', ');

/**
 * A reaction type: one of the `KNOWN_REACTION_TYPES`, or on whatsapp any other string (an
 * emoji), passed through verbatim. Which values a channel accepts is checked by the server once the
 * target message's channel is known.
 */
export const ReactionType = component(
  'ReactionType',
  z
    .string()
    .min(1)
    .max(64)
    // The predicate is a real check (no blank reactions) and narrows the type so that editors
    // suggest the known values while any string still fits.
    .refine((value): value is KnownReactionType | (string & {}) => value.trim().length > 0, {
      message: 'must not be blank',
    }),
  {
    description: `Tapback: ${TAPBACK_LIST}, or the negative form (\`-love\`, …) to remove one added through the API. imessage accepts only these twelve values. On whatsapp they map to emoji (${WHATSAPP_EMOJI_LIST}) and any other string, such as an emoji, is passed through verbatim.`,
    example: 'love',
  },
);
/** A reaction type. */
export type ReactionType = z.infer<typeof ReactionType>;

/**
 * Removes the `nullable` flag the converter puts on every schema that accepts null: OpenAPI 3.0
 * forbids `nullable` without a `type`, which a union has none of. An `undefined` override deletes
 * the flag in the converter's merge; the option type does not admit it, hence the cast.
 */
const WITHOUT_NULLABLE_FLAG = { nullable: undefined } as unknown as Parameters<typeof extendApi>[1];

/**
 * A custom metadata value: a short string, a number, a boolean or null. Null rides on the string
 * member, which has a type for OpenAPI 3.0's `nullable` to sit beside.
 */
const MetadataValue = extendApi(
  z.union([
    z
      .string()
      .max(METADATA_LIMITS.maxStringLength, {
        message: `must be at most ${METADATA_LIMITS.maxStringLength} characters`,
      })
      .nullable(),
    z.number(),
    z.boolean(),
  ]),
  WITHOUT_NULLABLE_FLAG,
);

/** A new metadata schema (a fresh instance per use: the component and the nullable copy). */
export function metadataSchema() {
  return z.record(z.string(), MetadataValue).superRefine((metadata, ctx) => {
    const keys = Object.keys(metadata);
    if (keys.length > METADATA_LIMITS.maxKeys) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `must have at most ${METADATA_LIMITS.maxKeys} keys (got ${keys.length})`,
      });
    }
    for (const key of keys) {
      if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyLength) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [key],
          message: `key must be 1 to ${METADATA_LIMITS.maxKeyLength} characters`,
        });
      }
    }
  });
}

/** The caller's custom key-value data on a message. */
export const Metadata = component('Metadata', metadataSchema(), {
  description: `Your own key-value data, echoed on the message and its events: at most ${METADATA_LIMITS.maxKeys} keys of 1 to ${METADATA_LIMITS.maxKeyLength} characters; each value a string of at most ${METADATA_LIMITS.maxStringLength} characters, a number, a boolean or null.`,
  example: { orderId: 'ord_1842', attempt: 2, vip: true },
});
/** Custom key-value data. */
export type Metadata = z.infer<typeof Metadata>;
