import type { Channel } from '@switchboard/contract';
import type { MessagingProvider } from './provider';
import {
  CAPABILITY_LABELS,
  type ProviderCapabilities,
  type ProviderCapabilityName,
} from './provider-capabilities';
import { ProviderError } from './provider-error';

/**
 * The capability `name` of `provider` on `channel`, or undefined when the provider lacks it, it
 * does not name the channel, or the instance does not serve the channel.
 * @example if (capabilityOn(provider, 'typing', 'whatsapp')) …
 */
export function capabilityOn<K extends ProviderCapabilityName>(
  provider: MessagingProvider,
  name: K,
  channel: Channel,
): ProviderCapabilities[K] | undefined {
  const capability = provider.capabilities[name];
  if (!capability) return undefined;
  if (!provider.channels.includes(channel) || !capability.channels.includes(channel)) {
    return undefined;
  }
  return capability;
}

/**
 * The capability `name` of `provider` on `channel`; the gateway's one answer for the rest: a
 * `ProviderError` `CHANNEL_NOT_SUPPORTED` (400) naming the operation and the channel.
 * @example await requireCapability(provider, 'reactions', channel).react(request);
 */
export function requireCapability<K extends ProviderCapabilityName>(
  provider: MessagingProvider,
  name: K,
  channel: Channel,
): NonNullable<ProviderCapabilities[K]> {
  const capability = capabilityOn(provider, name, channel);
  if (!capability) throw ProviderError.channelNotSupported(channel, CAPABILITY_LABELS[name]);
  return capability;
}
