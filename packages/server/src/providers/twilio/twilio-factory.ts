import { TwilioInstanceConfig } from '@switchboard/contract';
import type { ProviderFactory, ProviderInstanceConfig } from '@switchboard/provider-kit';
import { ProviderConfigError } from '@switchboard/provider-kit';
import { TWILIO_CHANNELS, TWILIO_PROVIDER, TwilioProvider } from './twilio-provider';

/** Server-wide Twilio settings. */
export interface TwilioFactoryOptions {
  /** Deadline of one Twilio API call, in milliseconds. */
  timeoutMs?: number;
}

/**
 * The factory of Twilio instances, for the provider registry: validates the instance's config
 * against the contract's `TwilioInstanceConfig` and picks the API credentials (the API key when
 * one is set, else the account SID and auth token).
 * @example registry.register(createTwilioFactory());
 */
export function createTwilioFactory(options: TwilioFactoryOptions = {}): ProviderFactory {
  return {
    provider: TWILIO_PROVIDER,
    supportedChannels: TWILIO_CHANNELS,
    create(instance: ProviderInstanceConfig): TwilioProvider {
      const parsed = TwilioInstanceConfig.safeParse(instance.config);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ProviderConfigError(
          `instance "${instance.name}": invalid twilio config${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
        );
      }
      const config = parsed.data;
      return new TwilioProvider({
        instanceName: instance.name,
        credentials: {
          accountSid: config.accountSid,
          username: config.apiKeySid ?? config.accountSid,
          password: config.apiKeySecret ?? config.authToken,
        },
        authToken: config.authToken,
        apiBaseUrl: config.apiBaseUrl,
        lookupBaseUrl: config.lookupBaseUrl,
        lookup: config.lookup,
        ...(config.messagingServiceSid === undefined
          ? {}
          : { messagingServiceSid: config.messagingServiceSid }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      });
    },
  };
}
