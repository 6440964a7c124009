import { z } from 'zod';
import { extendApi } from '../schema-annotations';
import {
  addCodedIssue,
  E164_PATTERN,
  EMAIL_PATTERN,
  GROUP_JID_PATTERN,
  isHttpUrl,
  OUTBOUND_URL_MESSAGE,
  PHONE_LIKE_PATTERN,
} from './common';

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

/** The longest message text (send and edit), in UTF-16 code units as JavaScript counts them. */
export const MESSAGE_TEXT_MAX_LENGTH = 10_000;
/** The most `content.mediaUrls` one send may carry. */
export const MEDIA_URLS_MAX = 20;
/** The most `attachments` one send may carry (same bound as `mediaUrls`). */
export const ATTACHMENTS_MAX = 20;
/** The most `mentions` one send may carry. */
export const MENTIONS_MAX = 100;
/** The longest `idempotencyKey`. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** The limits of a message's `metadata` object. */
export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxStringLength: 500 } as const;
/** The file extensions `content.mediaUrls` accepts when a URL's path has one. */
export const MEDIA_URL_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;

/** A `msg_<uuid>` message id. */
export const MESSAGE_ID_PATTERN =
  /^msg_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const URL_MAX_LENGTH = 2048;
const MIME_TYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+$/;
// Standard alphabet, padding only at the end. A plain character class keeps the check linear on
// multi-megabyte payloads; the length rule below finishes what the class cannot express.
const BASE64_CHARS_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;
const DATETIME_WITH_OFFSET = z.string().datetime({ offset: true });

/**
 * A nullable enum whose OpenAPI `enum` lists null too: OpenAPI 3.0 validates `enum` before it
 * looks at `nullable`, so without it a null value fails against its own schema. Used instead of
 * `Component.nullable()`, whose `allOf: [$ref]` form has the same flaw.
 */
export function nullableEnum<T extends [string, ...string[]]>(values: T) {
  // The converter merges arrays as a set union: this appends null to the generated enum.
  return extendApi(z.enum(values).nullable(), { enum: [...values, null] });
}

// ---------------------------------------------------------------------------------------------
// Address and value checks
// ---------------------------------------------------------------------------------------------

/** The forms a recipient address can take. */
export type RecipientKind = 'phone' | 'email' | 'group';

/**
 * Classifies a `to` address: an E.164 phone number, an e-mail style address (iMessage only) or a
 * WhatsApp group JID; null when it is none of them.
 */
export function recipientKind(value: string): RecipientKind | null {
  if (E164_PATTERN.test(value)) return 'phone';
  if (GROUP_JID_PATTERN.test(value)) return 'group';
  if (EMAIL_PATTERN.test(value)) return 'email';
  return null;
}

/** A new https URL schema (a fresh instance per field, so each can carry its own docs). */
export function httpsUrl() {
  return z.string().max(URL_MAX_LENGTH).refine(isHttpUrl, { message: OUTBOUND_URL_MESSAGE });
}

/** A new schema of a file's MIME type, such as `image/png` (a fresh instance, for its own docs). */
export function mimeTypeString() {
  return z.string().regex(MIME_TYPE_PATTERN, { message: 'must be a MIME type such as image/png' });
}

/** A new schema of a file name without a path (a fresh instance, for its own docs). */
export function fileName() {
  return z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/, { message: 'must be a file name without a path' });
}

/** The message of an attachment's `data` that is not standard base64. */
export const BASE64_MESSAGE =
  'must be non-empty standard base64 (RFC 4648, with padding, no data: prefix)';

/**
 * Why a media URL is refused, or null when it is fine. URLs without a file extension pass:
 * image CDNs rarely have one, and the provider checks the fetched Content-Type anyway.
 */
export function mediaUrlProblem(value: string): string | null {
  if (!isHttpUrl(value)) return OUTBOUND_URL_MESSAGE;
  const lastSegment = new URL(value).pathname.split('/').pop() ?? '';
  const dot = lastSegment.lastIndexOf('.');
  if (dot <= 0) return null;
  const extension = lastSegment.slice(dot + 1).toLowerCase();
  if ((MEDIA_URL_IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return null;
  return `points to a .${extension} file; content.mediaUrls takes images (${MEDIA_URL_IMAGE_EXTENSIONS.join(', ')}): send other files as attachments`;
}

/** True when the value is standard base64 (RFC 4648 section 4) with padding. */
export function isBase64(value: string): boolean {
  return value.length % 4 === 0 && BASE64_CHARS_PATTERN.test(value);
}

/** A phone number whose `+` arrived as a space: sent unencoded in a query string. */
const PLUS_AS_SPACE_PATTERN = /^ [1-9]\d{1,14}$/;

/** Names the cause of a `+` that arrived as a space, with `INVALID_PHONE_NUMBER`. */
function addPlusAsSpaceIssue(ctx: z.RefinementCtx): void {
  addCodedIssue(
    ctx,
    'INVALID_PHONE_NUMBER',
    'starts with a space where + was meant: a + sent unencoded in a query string arrives as a space; encode it as %2B',
  );
}

/**
 * An address in a query string (`?to=`, `?recipient=`): refused with the cause when its `+` was
 * sent unencoded and arrived as a space.
 */
export const QueryAddress = z.string().superRefine((value, ctx) => {
  if (PLUS_AS_SPACE_PATTERN.test(value)) addPlusAsSpaceIssue(ctx);
});

/** Answers a phone-like value that is not E.164 with `INVALID_PHONE_NUMBER`. */
function addNotE164Issue(ctx: z.RefinementCtx): void {
  addCodedIssue(ctx, 'INVALID_PHONE_NUMBER', 'is not an E.164 phone number (+ and 2 to 15 digits)');
}

/**
 * A send's `to`: E.164, e-mail style or `<id>@g.us`. A phone-like value that is not E.164
 * answers `INVALID_PHONE_NUMBER`; anything else unrecognised answers `INVALID_RECIPIENT`.
 */
export const MessageRecipient = z.string().superRefine((value, ctx) => {
  if (recipientKind(value) !== null) return;
  if (PLUS_AS_SPACE_PATTERN.test(value)) {
    addPlusAsSpaceIssue(ctx);
    return;
  }
  if (PHONE_LIKE_PATTERN.test(value)) {
    addNotE164Issue(ctx);
  } else {
    addCodedIssue(
      ctx,
      'INVALID_RECIPIENT',
      'must be an E.164 phone number, an e-mail style address or a WhatsApp group JID (<id>@g.us)',
    );
  }
});

/** A further address form {@link phoneOrEmailCheck} admits. */
export interface ExtraAddressForm {
  /** The form's pattern. */
  pattern: RegExp;
  /** How the error message names it, such as `an <id>@lid handle`. */
  name: string;
}

/**
 * A refinement admitting an E.164 phone number, an e-mail style address and, when given, one
 * further form. A phone-like value that is not E.164 answers `INVALID_PHONE_NUMBER`.
 */
export function phoneOrEmailCheck(extra?: ExtraAddressForm) {
  const expected = extra
    ? `must be an E.164 phone number, an e-mail style address or ${extra.name}`
    : 'must be an E.164 phone number or an e-mail style address';
  return (value: string, ctx: z.RefinementCtx): void => {
    if (E164_PATTERN.test(value) || EMAIL_PATTERN.test(value)) return;
    if (extra?.pattern.test(value)) return;
    if (PHONE_LIKE_PATTERN.test(value)) {
      addNotE164Issue(ctx);
    } else {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: expected });
    }
  };
}

/** A send's `from`: an E.164 phone number or an e-mail style address. */
export const SenderAddress = z.string().superRefine(phoneOrEmailCheck());

/** Message text: at most 10,000 characters. */
export const MessageText = z.string().max(MESSAGE_TEXT_MAX_LENGTH, {
  message: `must be at most ${MESSAGE_TEXT_MAX_LENGTH} characters`,
});

/**
 * `scheduledAt`: an ISO 8601 datetime with a UTC offset, else `INVALID_SCHEDULED_AT`. Past and
 * too-far values are the server's to judge: they depend on its clock.
 */
export const ScheduledAt = z.string().superRefine((value, ctx) => {
  if (!DATETIME_WITH_OFFSET.safeParse(value).success) {
    addCodedIssue(
      ctx,
      'INVALID_SCHEDULED_AT',
      'must be an ISO 8601 datetime with a UTC offset, such as 2026-11-21T10:00:00Z',
    );
  }
});
