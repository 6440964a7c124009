import type { Channel } from '@switchboard/contract';
import type { ProviderDestination, ProviderOperation } from '@switchboard/provider-kit';
import type { BlueBubblesApi } from './bluebubbles-api';
import type { MacStatus } from './bluebubbles-mac';

/** What the Mac's operations (message actions, chats and groups) need of the instance. */
export interface BlueBubblesOperationDeps {
  /** The BlueBubbles Server API. */
  readonly api: BlueBubblesApi;
  /** What the Mac can do now (Private API, macOS version). */
  readonly mac: MacStatus;
  /** Throws unless the instance is started and serves the request's channel. */
  assertStarted(request: ProviderOperation, operation: string): void;
  /** The BlueBubbles chat GUID of a destination, looked up; undefined when there is none yet. */
  chatFor(channel: Channel, to: ProviderDestination): Promise<string | undefined>;
}

/** The address of a destination, or its chat id, for messages. */
export function addressOf(to: ProviderDestination): string {
  return to.type === 'address' ? to.address : to.chatId;
}
