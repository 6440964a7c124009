import { BlueBubblesInstanceConfig } from '@switchboard/contract';
import type { ProviderFactory, ProviderInstanceConfig } from '@switchboard/provider-kit';
import { ProviderConfigError } from '@switchboard/provider-kit';
import {
  BLUEBUBBLES_CHANNELS,
  BLUEBUBBLES_PROVIDER,
  BlueBubblesProvider,
  type BlueBubblesProviderOptions,
} from './bluebubbles-provider';

/** Server-wide BlueBubbles settings. */
export interface BlueBubblesFactoryOptions {
  /** Deadline of one ordinary API call, in milliseconds. */
  timeoutMs?: number;
  /** The largest inbound attachment downloaded from a Mac. */
  maxAttachmentBytes?: number;
  /** Fetches a customer's media URL through the gateway's URL-safety guard. */
  fetchMedia?: BlueBubblesProviderOptions['fetchMedia'];
}

/**
 * The factory of BlueBubbles instances, for the provider registry: validates the instance's
 * config against the contract's `BlueBubblesInstanceConfig`.
 * @example registry.register(createBlueBubblesFactory());
 */
export function createBlueBubblesFactory(options: BlueBubblesFactoryOptions = {}): ProviderFactory {
  return {
    provider: BLUEBUBBLES_PROVIDER,
    supportedChannels: BLUEBUBBLES_CHANNELS,
    create(instance: ProviderInstanceConfig): BlueBubblesProvider {
      const parsed = BlueBubblesInstanceConfig.safeParse(instance.config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ProviderConfigError(
          `instance "${instance.name}": invalid bluebubbles config${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
        );
      }
      const config = parsed.data;
      return new BlueBubblesProvider({
        instanceName: instance.name,
        channels: instance.channels.filter((channel) => BLUEBUBBLES_CHANNELS.includes(channel)),
        serverUrl: config.serverUrl,
        password: config.password,
        sendMethod: config.sendMethod,
        ...(config.address === undefined ? {} : { address: config.address }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.maxAttachmentBytes === undefined
          ? {}
          : { maxAttachmentBytes: options.maxAttachmentBytes }),
        ...(options.fetchMedia === undefined ? {} : { fetchMedia: options.fetchMedia }),
      });
    },
  };
}
