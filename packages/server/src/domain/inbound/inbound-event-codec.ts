import type { ProviderInboundEvent } from '@switchboard/provider-kit';

/** How a `Date` is written: `{"$date": "<ISO 8601>"}`. */
interface EncodedDate {
  $date: string;
}
/** How bytes are written: `{"$bytes": "<base64>"}`. */
interface EncodedBytes {
  $bytes: string;
}

function isEncodedDate(value: unknown): value is EncodedDate {
  return (
    typeof value === 'object' && value !== null && typeof (value as EncodedDate).$date === 'string'
  );
}

function isEncodedBytes(value: unknown): value is EncodedBytes {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as EncodedBytes).$bytes === 'string'
  );
}

/**
 * Writes a provider event as JSON that {@link decodeInboundEvent} reads back into the same event:
 * its dates (`occurredAt`) and attachment bytes (Baileys hands decrypted media) survive.
 */
export function encodeInboundEvent(event: ProviderInboundEvent): string {
  return JSON.stringify(event, function encode(this: Record<string, unknown>, key, value) {
    // `value` is what `toJSON` made of it; the holder still has the original.
    const original = this[key];
    if (original instanceof Date) return { $date: original.toISOString() } satisfies EncodedDate;
    if (original instanceof Uint8Array) {
      return { $bytes: Buffer.from(original).toString('base64') } satisfies EncodedBytes;
    }
    return value;
  });
}

/** Reads an event written by {@link encodeInboundEvent}. */
export function decodeInboundEvent(payload: string): ProviderInboundEvent {
  return JSON.parse(payload, (_key, value: unknown) => {
    if (isEncodedDate(value)) return new Date(value.$date);
    if (isEncodedBytes(value)) return new Uint8Array(Buffer.from(value.$bytes, 'base64'));
    return value;
  }) as ProviderInboundEvent;
}
