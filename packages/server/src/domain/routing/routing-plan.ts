import type { Channel } from '@switchboard/contract';
import type { MessageRecord } from '../../store/message-repository';

/** The routing fields of a message. */
export type RoutedMessage = Pick<
  MessageRecord,
  'pinnedChannel' | 'routingPreference' | 'routingFallback'
>;

/**
 * The channels a send tries, in order: the pinned channel of a chat-keyed or group send; else
 * the routing preference, or only its first channel when fallback is off.
 */
export function channelsToTry(message: RoutedMessage): Channel[] {
  if (message.pinnedChannel !== null) return [message.pinnedChannel];
  return message.routingFallback
    ? [...message.routingPreference]
    : message.routingPreference.slice(0, 1);
}

/** The first preferred channel: a delivery on any other one is a fallback. */
export function firstChoice(message: RoutedMessage): Channel | undefined {
  return message.pinnedChannel ?? message.routingPreference[0];
}

/**
 * `<messageId>:<attempt>:<channel>`: unique per attempt and channel, and the same when a worker
 * re-drives the attempt after a crash (upstreams that dedupe on it then send once).
 */
export function attemptIdOf(messageId: string, attempt: number, channel: Channel): string {
  return `${messageId}:${attempt}:${channel}`;
}

/** The preferred channels a send leaves out because `routing.fallback` is off. */
export function withheldChannels(message: RoutedMessage): Channel[] {
  if (message.pinnedChannel !== null || message.routingFallback) return [];
  return message.routingPreference.slice(1);
}
