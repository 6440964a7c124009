import type { BaileysEventMap } from 'baileys';
import type { BaileysSocket } from './baileys-socket';

/** Registers a handler for one of a socket's events. */
export type SubscribeToSocket = <E extends keyof BaileysEventMap>(
  event: E,
  handler: (data: BaileysEventMap[E]) => Promise<void>,
) => void;

/** The two ways a session listens to its socket. */
export interface SocketSubscriptions {
  /** Each event handled as it comes. */
  on: SubscribeToSocket;
  /** Each event handled after the previous ones registered this way have been. */
  inOrder: SubscribeToSocket;
}

/**
 * Listens to a socket's events while `current()` says the socket is still the session's (a
 * replaced or stopped socket's events are ignored); a handler's failure goes to `failed`.
 * `inOrder` handles what WhatsApp reports about messages and chats one event after another, in
 * the order Baileys emitted it: naming a `@lid` asks Baileys' mapping store, and a later event
 * must not overtake an earlier one while it waits.
 */
export function socketSubscriptions(
  socket: BaileysSocket,
  current: () => boolean,
  failed: (error: unknown, event: keyof BaileysEventMap) => void,
): SocketSubscriptions {
  const on: SubscribeToSocket = (event, handler) => {
    socket.ev.on(event, (data) => {
      if (!current()) return;
      handler(data).catch((error: unknown) => {
        failed(error, event);
      });
    });
  };
  let inbound: Promise<void> = Promise.resolve();
  const inOrder: SubscribeToSocket = (event, handler) =>
    on(event, (data) => {
      const run = inbound.then(() => handler(data));
      inbound = run.catch(() => undefined);
      return run;
    });
  return { on, inOrder };
}
