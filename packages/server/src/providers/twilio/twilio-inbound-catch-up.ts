import type {
  ProviderInboundAttachment,
  ProviderInboundMessageEvent,
  ProviderStateStore,
} from '@switchboard/provider-kit';
import type { TwilioApi, TwilioIncomingNumber, TwilioMessage } from './twilio-api';
import { withoutFragment } from './twilio-connection-overrides';

/** Where the time the next catch-up looks from is kept (epoch ms). */
const SINCE_KEY = 'inbound-catch-up:since';
/** Where the time of the first run is kept: no run looks before it. */
const STARTED_KEY = 'inbound-catch-up:started';
/** How far before its own start the next run looks again: Twilio's clock and ours may differ. */
const OVERLAP_MS = 10 * 60 * 1000;
/** The furthest back a catch-up looks, however long the instance was away. */
const MAX_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** Messages a page, and pages a number, of one catch-up. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/**
 * Takes up the inbound messages Twilio received but could not hand over (the gateway down, a
 * call answered 5xx after Twilio's tries ran out): each run lists the messages sent to every
 * number whose `sms_url` is the instance's ingress since the last run, and reports those that
 * came in. A message reported before (by its call or an earlier run) is dropped by the gateway,
 * which remembers each `MessageSid` as an upstream event id. The first run only starts the clock:
 * messages from before the instance ever ran are not taken.
 */
export class TwilioInboundCatchUp {
  /** A catch-up through `api`, keeping its watermark in the instance's `state`. */
  constructor(
    private readonly api: TwilioApi,
    private readonly state: ProviderStateStore,
    private readonly now: () => number,
  ) {}

  /**
   * Reports (through `report`) every inbound message to `numbers` pointed at `ingressUrl` since
   * the last run; answers how many were reported. The next run looks from this one's start
   * (less an overlap) only when every message was reported.
   */
  async run(
    numbers: readonly TwilioIncomingNumber[],
    ingressUrl: string,
    report: (event: ProviderInboundMessageEvent) => Promise<void>,
  ): Promise<number> {
    const now = this.now();
    const stored = Number(await this.state.get(SINCE_KEY));
    const started = Number(await this.state.get(STARTED_KEY));
    if (!(stored > 0) || !(started > 0)) {
      await this.state.set(STARTED_KEY, String(now));
      await this.state.set(SINCE_KEY, String(now));
      return 0;
    }
    // Twilio's dates have whole seconds: a message of the second the window opens is in it.
    const opened = Math.max(stored, now - MAX_WINDOW_MS);
    const since = opened - (opened % 1000);
    const ours = numbers.filter(
      (number) =>
        number.sms_url !== null && withoutFragment(number.sms_url) === withoutFragment(ingressUrl),
    );
    let reported = 0;
    let complete = true;
    for (const number of ours) {
      const messages = await this.api.listMessagesSince({
        to: number.phone_number,
        since,
        pageSize: PAGE_SIZE,
        pages: MAX_PAGES,
      });
      // Oldest first, as they came in.
      for (const message of messages.reverse()) {
        const sentAt = Date.parse(message.date_sent ?? message.date_created ?? '');
        if (message.direction !== 'inbound' || !(sentAt >= since)) continue;
        try {
          await report(await this.#eventOf(message, new Date(sentAt)));
          reported += 1;
        } catch {
          complete = false;
        }
      }
    }
    if (complete) await this.state.set(SINCE_KEY, String(Math.max(now - OVERLAP_MS, started)));
    return reported;
  }

  async #eventOf(message: TwilioMessage, occurredAt: Date): Promise<ProviderInboundMessageEvent> {
    const media = Number(message.num_media ?? '0') > 0 ? await this.api.listMedia(message.sid) : [];
    const attachments: ProviderInboundAttachment[] = media.map((file) => ({
      mimeType: file.content_type,
      content: {
        kind: 'url',
        url: this.api.urlOf(file.uri.replace(/\.json$/, '')),
        headers: { authorization: this.api.authorization },
      },
    }));
    return {
      kind: 'message.inbound',
      channel: 'sms',
      occurredAt,
      upstreamEventId: message.sid,
      externalId: message.sid,
      from: message.from ?? '',
      to: message.to,
      isGroup: false,
      text: message.body ?? '',
      attachments,
    };
  }
}
