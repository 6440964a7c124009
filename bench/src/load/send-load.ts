import { recipientCount, recipientNumber } from '../seed/phone-numbers';
import { realisticSendBody } from '../seed/send-body';
import { type HttpLoadResult, runHttpLoad } from './http-load';

/** What {@link sendLoad} needs: where, with which keys, how hard and for how long. */
export interface SendLoadOptions {
  /** The server's base URL. */
  url: string;
  /** API keys, used in turn. */
  keys: readonly string[];
  connections: number;
  durationSec: number;
}

/**
 * A closed-loop send load: realistic sends to delivered iMessage recipients, the keys in turn.
 * Answers a function running one load of it; `tag` keeps idempotency keys of runs apart.
 */
export function sendLoad(options: SendLoadOptions): (tag: string) => Promise<HttpLoadResult> {
  let sequence = 0;
  const recipients = recipientCount('imessage-delivered');
  const runTag = `${Date.now()}`;
  return (tag) =>
    runHttpLoad({
      url: options.url,
      method: 'POST',
      connections: options.connections,
      durationSec: options.durationSec,
      nextRequest: () => {
        sequence += 1;
        return {
          path: '/v1/messages',
          headers: {
            authorization: `Bearer ${options.keys[sequence % options.keys.length]}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(
            realisticSendBody(
              recipientNumber('imessage-delivered', sequence % recipients),
              sequence,
              `${runTag}-${tag}`,
            ),
          ),
        };
      },
    });
}
