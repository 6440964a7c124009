import type { ProviderHub } from '../../providers/provider-hub';
import type { MessageEvents } from '../messages/message-events';
import { audioKeptHandler } from './audio-kept-handler';
import { chatEventHandler } from './chat-event-handler';
import { faceTimeIncomingHandler, faceTimeStatusHandler } from './facetime-handlers';
import type { InboundDeps } from './inbound-deps';
import type { InboundMessageReceiver } from './inbound-message-handler';
import { chatReadHandler, messageChangeHandler } from './message-change-handler';
import { reactionHandler } from './reaction-handler';
import { typingHandler } from './typing-handler';

/**
 * Registers the handlers of everything contacts do (messages, reactions, kept voice notes,
 * typing, group changes, FaceTime calls) on the hub. Read receipts are `message.status` events,
 * handled with the other delivery statuses by the messaging side.
 */
export function registerInboundHandlers(
  hub: Pick<ProviderHub, 'on'>,
  deps: InboundDeps & { lifecycle: Pick<MessageEvents, 'lifecycle' | 'edited'> },
  messages: InboundMessageReceiver,
): void {
  hub.on('message.inbound', messages.handler());
  hub.on('message.changed', messageChangeHandler(deps));
  hub.on('chat.read', chatReadHandler(deps));
  hub.on('message.reaction', reactionHandler(deps));
  hub.on('message.audio_kept', audioKeptHandler(deps));
  hub.on('typing', typingHandler(deps));
  hub.on('chat.event', chatEventHandler(deps));
  hub.on('facetime.incoming', faceTimeIncomingHandler(deps));
  hub.on('facetime.status', faceTimeStatusHandler(deps));
}
