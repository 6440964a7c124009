import type { ProviderInboundEvent } from '@switchboard/provider-kit';
import type { InboundContext, InboundHandler, ProviderHub } from '../../providers/provider-hub';
import type { MessageEvents } from '../messages/message-events';
import { audioKeptHandler } from './audio-kept-handler';
import { chatEventHandler } from './chat-event-handler';
import { faceTimeIncomingHandler, faceTimeStatusHandler } from './facetime-handlers';
import type { InboundDeps } from './inbound-deps';
import type { InboundMessageReceiver } from './inbound-message-handler';
import { chatReadHandler, messageChangeHandler } from './message-change-handler';
import { reactionHandler } from './reaction-handler';
import { typingHandler } from './typing-handler';
import type { InboundReplay } from './unrouted-inbound-service';

/** The handlers of the inbound kinds, by kind. */
type InboundHandlers = { [K in ProviderInboundEvent['kind']]?: InboundHandler<K> };

/**
 * Registers the handlers of everything contacts do (messages, reactions, kept voice notes,
 * typing, group changes, FaceTime calls) on the hub. Read receipts are `message.status` events,
 * handled with the other delivery statuses by the messaging side. Answers how a kept event is
 * handed to the same handlers later (delivery of what came for an address assigned since).
 */
export function registerInboundHandlers(
  hub: Pick<ProviderHub, 'on'>,
  deps: InboundDeps & { lifecycle: Pick<MessageEvents, 'lifecycle' | 'edited'> },
  messages: InboundMessageReceiver,
): InboundReplay {
  const handlers = {
    'message.inbound': messages.handler(),
    'message.changed': messageChangeHandler(deps),
    'chat.read': chatReadHandler(deps),
    'message.reaction': reactionHandler(deps),
    'message.audio_kept': audioKeptHandler(deps),
    typing: typingHandler(deps),
    'chat.event': chatEventHandler(deps),
    'facetime.incoming': faceTimeIncomingHandler(deps),
    'facetime.status': faceTimeStatusHandler(deps),
  } satisfies InboundHandlers;
  hub.on('message.inbound', handlers['message.inbound']);
  hub.on('message.changed', handlers['message.changed']);
  hub.on('chat.read', handlers['chat.read']);
  hub.on('message.reaction', handlers['message.reaction']);
  hub.on('message.audio_kept', handlers['message.audio_kept']);
  hub.on('typing', handlers.typing);
  hub.on('chat.event', handlers['chat.event']);
  hub.on('facetime.incoming', handlers['facetime.incoming']);
  hub.on('facetime.status', handlers['facetime.status']);
  return async (event: ProviderInboundEvent, context: InboundContext) => {
    const handler = (handlers as InboundHandlers)[event.kind] as
      | ((event: ProviderInboundEvent, context: InboundContext) => Promise<void>)
      | undefined;
    await handler?.(event, context);
  };
}
