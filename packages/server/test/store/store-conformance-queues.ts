import { describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../src/store/delivery-repository';
import type { MessageRecord } from '../../src/store/message-repository';
import type { Store } from '../../src/store/store';
import { DuplicateWebhookError } from '../../src/store/webhook-repository';
import { outboundMessage, seedSender } from './message-fixture';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A queued outbound message of customer `c1` on instance `i1`: text only, no optional extras. */
function message(id: string, overrides: Partial<MessageRecord> = {}): MessageRecord {
  return outboundMessage(id, T0, {
    to: '+14155550123',
    from: '+14155550100',
    text: `text of ${id}`,
    mediaUrls: null,
    attachments: [],
    mentions: null,
    callbackUrl: null,
    metadata: { zeta: id, alpha: 1, mid: true },
    createContact: null,
    correlationId: `cor_${id}`,
    segments: null,
    redactedAt: null,
    hold: null,
    ...overrides,
  });
}

/** Webhook `w1` of customer `c1` (with `exhaustedChains` ended chains) and its event `e1`. */
async function seedDeliveryQueue(store: Store, exhaustedChains = 0): Promise<void> {
  await store.webhooks.insert({
    id: 'w1',
    customerId: 'c1',
    name: null,
    url: 'https://example.com/hook',
    events: ['*'],
    secret: 'whsec_test',
    active: true,
    exhaustedChains,
    createdAt: T0,
    updatedAt: T0,
  });
  await store.events.insert({
    id: 'e1',
    customerId: 'c1',
    type: 'message.sent',
    payload: '{"id":"e1"}',
    correlationId: 'cor',
    messageId: null,
    callbackUrl: 'https://example.com/callback',
    createdAt: T0,
  });
}

/** A first, pending, due, unleased attempt of event `e1` to webhook `w1`. */
function delivery(id: string, overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id,
    customerId: 'c1',
    webhookId: 'w1',
    targetUrl: null,
    eventId: 'e1',
    eventType: 'message.sent',
    attempt: 1,
    trigger: 'event',
    status: 'pending',
    statusCode: null,
    durationMs: null,
    error: null,
    responseBody: null,
    createdAt: T0,
    attemptedAt: null,
    nextAttemptAt: T0,
    leaseOwner: null,
    leaseUntil: null,
    ...overrides,
  };
}

/** A 2xx answer, recorded. */
const DELIVERED = {
  status: 'delivered',
  statusCode: 200,
  durationMs: 12,
  error: null,
  responseBody: '{"received":"✓"}',
  attemptedAt: at(6),
  nextAttemptAt: null,
} as const;

/**
 * The behaviour of the queues and logs every backend must share, under concurrency too: messages
 * (idempotency races, keyset pages, conditional transitions), the event log, webhooks and the
 * webhook delivery queue (claims, leases). Called by each backend's test file with a function
 * that opens a fresh, migrated, empty store.
 */
export function describeQueueConformance(name: string, openStore: () => Promise<Store>): void {
  async function withSeededStore(work: (store: Store) => Promise<void>): Promise<void> {
    const store = await openStore();
    try {
      await seedSender(store, T0);
      await work(store);
    } finally {
      await store.close();
    }
  }

  describe(`${name} queues and logs`, () => {
    it('round-trips a message, JSON key order and all', () =>
      withSeededStore(async (store) => {
        const original = message('m1', { segments: 2, scheduledAt: at(60) });
        expect(await store.messages.insert(original)).toBe(true);
        const found = await store.messages.findById('c1', 'm1');
        expect(found).toEqual(original);
        expect(JSON.stringify(found?.metadata)).toBe(JSON.stringify(original.metadata));
        expect(await store.messages.findById('c2', 'm1')).toBeUndefined();
      }));

    it('stores one message of concurrent sends with one idempotency key', () =>
      withSeededStore(async (store) => {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            store.transaction((tx) =>
              tx.messages.insert(message(`m${index}`, { idempotencyKey: 'same-key' })),
            ),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const kept = await store.messages.findByIdempotencyKey('c1', 'same-key');
        expect(kept?.id).toBe(`m${results.indexOf(true)}`);
      }));

    it('lets exactly one of concurrent transitions move a message', () =>
      withSeededStore(async (store) => {
        await store.messages.insert(message('m1'));
        const moved = await Promise.all(
          Array.from({ length: 10 }, () =>
            store.messages.transition('m1', ['queued'], { status: 'pending', updatedAt: at(1) }),
          ),
        );
        expect(moved.filter(Boolean)).toHaveLength(1);
        expect((await store.messages.findById('c1', 'm1'))?.status).toBe('pending');
      }));

    it('moves a message only in the retry and while not deleted, when asked', () =>
      withSeededStore(async (store) => {
        await store.messages.insert(message('m1', { retryCount: 1 }));
        const patch = { status: 'pending' as const, updatedAt: at(1) };
        expect(await store.messages.transition('m1', ['queued'], patch, { retryCount: 0 })).toBe(
          false,
        );
        expect((await store.messages.findById('c1', 'm1'))?.status).toBe('queued');
        await store.messages.update('m1', { deletedAt: at(2) });
        expect(await store.messages.transition('m1', ['queued'], patch, { retryCount: 1 })).toBe(
          false,
        );
        await store.messages.update('m1', { deletedAt: null });
        expect(await store.messages.transition('m1', ['queued'], patch, { retryCount: 1 })).toBe(
          true,
        );
        expect((await store.messages.findById('c1', 'm1'))?.status).toBe('pending');
        expect(
          await store.messages.transition(
            'm1',
            ['pending'],
            { status: 'sent' },
            {
              retryCount: 1,
              includeDeleted: true,
            },
          ),
        ).toBe(true);
      }));

    it('records a provider id only on the attempt the message is still on', () =>
      withSeededStore(async (store) => {
        const sms = { retryCount: 1, channel: 'sms' as const };
        await store.messages.insert(message('m1', { status: 'pending', ...sms }));
        const stored = async () => {
          const found = await store.messages.findById('c1', 'm1');
          return [found?.externalId, found?.segments];
        };
        // Another retry or channel: the message has moved past that attempt.
        await store.messages.recordProviderId('m1', { ...sms, retryCount: 0 }, 'SM0', 2);
        await store.messages.recordProviderId('m1', { ...sms, channel: 'imessage' }, 'SM0', 2);
        expect(await stored()).toEqual([null, null]);
        await store.messages.recordProviderId('m1', sms, 'SM1', 3);
        expect(await stored()).toEqual(['SM1', 3]);
        // Another provider id does not replace it; the same one again takes the count.
        await store.messages.recordProviderId('m1', sms, 'SM2', 5);
        expect(await stored()).toEqual(['SM1', 3]);
        await store.messages.recordProviderId('m1', sms, 'SM1', 4);
        expect(await stored()).toEqual(['SM1', 4]);
        await store.messages.recordProviderId('m1', sms, 'SM1');
        expect(await stored()).toEqual(['SM1', 4]);
      }));

    it('lists messages left unchanged in a status and lets one racer take each over', () =>
      withSeededStore(async (store) => {
        await store.messages.insert(message('old', { status: 'pending', updatedAt: at(0) }));
        await store.messages.insert(message('older', { status: 'pending', updatedAt: at(-5) }));
        await store.messages.insert(message('fresh', { status: 'pending', updatedAt: at(50) }));
        await store.messages.insert(message('queued', { updatedAt: at(-10) }));
        expect(await store.messages.staleIds('pending', at(10), 10)).toEqual(['older', 'old']);
        const takes = await Promise.all(
          Array.from({ length: 6 }, () =>
            store.messages.claimStale('old', 'pending', at(10), at(60)),
          ),
        );
        expect(takes.filter(Boolean)).toHaveLength(1);
        expect((await store.messages.findById('c1', 'old'))?.updatedAt).toEqual(at(60));
        expect(await store.messages.claimStale('old', 'pending', at(10), at(61))).toBe(false);
        expect(await store.messages.claimStale('fresh', 'pending', at(10), at(61))).toBe(false);
        expect(await store.messages.staleIds('pending', at(10), 10)).toEqual(['older']);
      }));

    it('loses no update of concurrent read-modify-write transactions on one row', () =>
      withSeededStore(async (store) => {
        await store.messages.insert(message('m1'));
        await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            store.transaction(async (tx) => {
              const current = await tx.messages.findById('c1', 'm1');
              if (!current) throw new Error('m1 is gone');
              // Let the other transactions read the same row meanwhile.
              await new Promise((resolve) => setTimeout(resolve, 5));
              await tx.messages.update('m1', {
                timeline: [
                  ...current.timeline,
                  { status: 'queued', at: T0.getTime() + index, channel: null },
                ],
              });
            }),
          ),
        );
        const timeline = (await store.messages.findById('c1', 'm1'))?.timeline ?? [];
        expect(timeline).toHaveLength(9);
      }));

    it('pages messages newest first by (created_at, id), with filters, losing none', () =>
      withSeededStore(async (store) => {
        // Ids chosen so that byte order and a locale's order differ (case, punctuation).
        const ids = ['m-b', 'mA', 'm_a', 'ma', 'M1', 'm-a', 'mB'];
        for (const [index, id] of ids.entries()) {
          await store.messages.insert(
            message(id, {
              createdAt: at(index < 4 ? 0 : index),
              to: index % 2 === 0 ? '+14155550123' : '+14155550999',
            }),
          );
        }
        const seen: string[] = [];
        let after: { createdAt: Date; id: string } | undefined;
        for (;;) {
          const page = await store.messages.list('c1', { limit: 3, ...(after ? { after } : {}) });
          seen.push(...page.map((m) => m.id));
          const last = page.at(-1);
          if (page.length < 3 || !last) break;
          after = { createdAt: last.createdAt, id: last.id };
        }
        const expected = [...ids]
          .map((id, index) => ({ id, created: index < 4 ? 0 : index }))
          .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          .map((entry) => entry.id);
        expect(seen).toEqual(expected);
        const toOther = await store.messages.list('c1', { limit: 10, to: '+14155550999' });
        expect(toOther.map((m) => m.id).sort()).toEqual(['mA', 'ma', 'm-a'].sort());
      }));

    it('lists due scheduled messages soonest first and counts by status', () =>
      withSeededStore(async (store) => {
        await store.messages.insert(message('s2', { status: 'scheduled', scheduledAt: at(20) }));
        await store.messages.insert(message('s1', { status: 'scheduled', scheduledAt: at(10) }));
        await store.messages.insert(message('s3', { status: 'scheduled', scheduledAt: at(30) }));
        expect(await store.messages.dueScheduledIds(at(25), 10)).toEqual(['s1', 's2']);
        expect(await store.messages.countByStatus(['scheduled', 'queued'])).toEqual({
          scheduled: 3,
        });
        const page = await store.messages.listScheduled('c1', {
          limit: 2,
          after: { scheduledAt: at(10), id: 's1' },
        });
        expect(page.map((m) => m.id)).toEqual(['s2', 's3']);
      }));

    it('replays the event log after a cursor, oldest first, without webhook tests', () =>
      withSeededStore(async (store) => {
        const event = (id: string, seconds: number, type = 'message.sent' as const) => ({
          id,
          customerId: 'c1',
          type,
          payload: `{"id":"${id}"}`,
          correlationId: 'cor',
          messageId: null,
          callbackUrl: null,
          createdAt: at(seconds),
        });
        await store.events.insert(event('e2', 1));
        await store.events.insert(event('e1', 1));
        await store.events.insert(event('e3', 2));
        await store.events.insert({ ...event('e4', 3), type: 'webhook.test' });
        const after = await store.events.listAfter('c1', { createdAt: at(0), id: '' }, 10);
        expect(after.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
        const later = await store.events.listAfter('c1', { createdAt: at(1), id: 'e1' }, 10);
        expect(later.map((e) => e.id)).toEqual(['e2', 'e3']);
      }));

    it("lists a message's events oldest first after a cursor, and the attempts of events", () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        const event = (
          id: string,
          seconds: number,
          messageId: string | null,
          customerId = 'c1',
        ) => ({
          id,
          customerId,
          type: 'message.sent' as const,
          payload: `{"id":"${id}"}`,
          correlationId: 'cor',
          messageId,
          callbackUrl: null,
          createdAt: at(seconds),
        });
        await store.events.insert(event('m2', 1, 'msg_a'), [delivery('d2', { eventId: 'm2' })]);
        await store.events.insert(event('m1', 1, 'msg_a'));
        await store.events.insert(event('m3', 2, 'msg_a'), [
          delivery('d3', { eventId: 'm3' }),
          delivery('d4', { eventId: 'm3', webhookId: null, targetUrl: 'https://example.com/cb' }),
        ]);
        await store.events.insert(event('n1', 1, 'msg_b'));
        await store.events.insert(event('x1', 1, null));
        const all = await store.events.listByMessage('c1', 'msg_a', { limit: 10 });
        expect(all.map((e) => e.id)).toEqual(['m1', 'm2', 'm3']);
        expect(all[0]).toEqual(event('m1', 1, 'msg_a'));
        const first = await store.events.listByMessage('c1', 'msg_a', { limit: 1 });
        expect(first.map((e) => e.id)).toEqual(['m1']);
        const after = await store.events.listByMessage('c1', 'msg_a', {
          limit: 10,
          after: { createdAt: at(1), id: 'm1' },
        });
        expect(after.map((e) => e.id)).toEqual(['m2', 'm3']);
        expect(await store.events.listByMessage('c2', 'msg_a', { limit: 10 })).toEqual([]);

        const attempts = await store.deliveries.listForEvents('c1', ['m2', 'm3', 'm1']);
        expect(attempts).toEqual([
          delivery('d2', { eventId: 'm2' }),
          delivery('d3', { eventId: 'm3' }),
          delivery('d4', { eventId: 'm3', webhookId: null, targetUrl: 'https://example.com/cb' }),
        ]);
        expect(await store.deliveries.listForEvents('c2', ['m2'])).toEqual([]);
        expect(await store.deliveries.listForEvents('c1', [])).toEqual([]);
      }));

    it('keeps one active webhook per url and event set, and finds subscribers', () =>
      withSeededStore(async (store) => {
        const hook = {
          id: 'w1',
          customerId: 'c1',
          name: null,
          url: 'https://example.com/hook',
          events: ['message.sent' as const],
          secret: 'whsec_test',
          active: true,
          exhaustedChains: 0,
          createdAt: T0,
          updatedAt: T0,
        };
        await store.webhooks.insert(hook);
        await expect(store.webhooks.insert({ ...hook, id: 'w2' })).rejects.toBeInstanceOf(
          DuplicateWebhookError,
        );
        await store.webhooks.insert({ ...hook, id: 'w3', events: ['*'], createdAt: at(1) });
        expect(await store.webhooks.listActiveSubscribedIds('c1', 'message.sent')).toEqual([
          'w1',
          'w3',
        ]);
        expect(await store.webhooks.listActiveSubscribedIds('c1', 'message.failed')).toEqual([
          'w3',
        ]);
        expect(await store.webhooks.recordExhaustedChain('w1', 2, at(2))).toEqual({
          streak: 1,
          deactivated: false,
        });
        expect(await store.webhooks.recordExhaustedChain('w1', 2, at(2))).toEqual({
          streak: 2,
          deactivated: true,
        });
        expect((await store.webhooks.findById('c1', 'w1'))?.active).toBe(false);
      }));

    it('gives each due delivery to exactly one of concurrent claimers, until its lease runs out', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        await store.deliveries.insertMany([
          delivery('d1'),
          delivery('d2', { nextAttemptAt: at(1) }),
          delivery('d3', { nextAttemptAt: at(100) }),
          delivery('d4', { webhookId: null, targetUrl: 'https://example.com/callback' }),
        ]);
        expect(await store.deliveries.countPending()).toBe(4);
        expect((await store.deliveries.listDueTargets(at(5))).sort()).toEqual([
          'url:https://example.com/callback',
          'w1',
        ]);
        expect((await store.deliveries.listDueFor(at(5), ['w1'], 10)).map((due) => due.id)).toEqual(
          ['d1', 'd2'],
        );

        const claims = await Promise.all(
          ['a', 'b', 'c', 'd', 'e'].map((owner) =>
            store.deliveries.claim('d1', owner, at(5), at(35)),
          ),
        );
        const winners = claims.filter((claim) => claim !== undefined);
        expect(winners).toHaveLength(1);
        const [won] = winners;
        expect(won?.webhook).toEqual({
          url: 'https://example.com/hook',
          secret: 'whsec_test',
          active: true,
        });
        expect(won?.payload).toBe('{"id":"e1"}');
        expect(won?.correlationId).toBe('cor');
        expect(won?.customerDeleted).toBe(false);
        const owner = won?.delivery.leaseOwner ?? '';
        // The attempt as claimed: the lease just taken, every other field as stored.
        expect(['a', 'b', 'c', 'd', 'e']).toContain(owner);
        expect(won?.delivery).toEqual(delivery('d1', { leaseOwner: owner, leaseUntil: at(35) }));
        // Leased: no one else takes it, nor completes it, until the lease runs out.
        expect(await store.deliveries.claim('d1', 'late', at(10), at(40))).toBeUndefined();
        const result = DELIVERED;
        expect(await store.deliveries.complete('d1', 'late', result)).toBe(false);
        // A claimer that died: its lease runs out and another process makes the attempt.
        expect(await store.deliveries.claim('d1', 'late', at(36), at(66))).toBeDefined();
        expect(await store.deliveries.complete('d1', owner, result)).toBe(false);
        expect(await store.deliveries.complete('d1', 'late', result)).toBe(true);
        expect(await store.deliveries.claim('d3', 'x', at(5), at(35))).toBeUndefined();
        expect(
          await store.deliveries.claim('d3', 'x', at(5), at(35), { ignoreDueTime: true }),
        ).toBeDefined();
        expect(await store.deliveries.countPending()).toBe(3);
        // A callback URL's attempt: no webhook to send with.
        const callback = await store.deliveries.claim('d4', 'x', at(5), at(35));
        expect(callback?.webhook).toBeNull();
        expect(callback?.delivery.targetUrl).toBe('https://example.com/callback');
      }));

    it('claims several due attempts at once, each only once, skipping the leased, settled, not yet due and unknown', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        const callback = { webhookId: null, targetUrl: 'https://example.com/callback' };
        await store.deliveries.insertMany([
          delivery('d1'),
          delivery('d2', { nextAttemptAt: at(1) }),
          delivery('d3', { nextAttemptAt: at(100) }),
          delivery('d4', callback),
          delivery('d5'),
          delivery('d6'),
        ]);
        expect(await store.deliveries.claimMany([], 'a', at(5), at(35))).toEqual([]);
        // d5 leased by another claimer, d6 settled already.
        expect(await store.deliveries.claim('d5', 'other', at(5), at(35))).toBeDefined();
        expect(await store.deliveries.claim('d6', 'a', at(5), at(35))).toBeDefined();
        expect(await store.deliveries.complete('d6', 'a', DELIVERED)).toBe(true);

        const ids = ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'missing'];
        const taken = await store.deliveries.claimMany(ids, 'a', at(5), at(35));
        const byId = new Map(taken.map((claimed) => [claimed.delivery.id, claimed]));
        expect([...byId.keys()].sort()).toEqual(['d1', 'd2', 'd4']);
        // Each attempt as claimed, with what sending it needs.
        expect(byId.get('d1')?.delivery).toEqual(
          delivery('d1', { leaseOwner: 'a', leaseUntil: at(35) }),
        );
        expect(byId.get('d1')?.webhook).toEqual({
          url: 'https://example.com/hook',
          secret: 'whsec_test',
          active: true,
        });
        expect(byId.get('d2')?.payload).toBe('{"id":"e1"}');
        expect(byId.get('d4')?.webhook).toBeNull();
        expect(byId.get('d4')?.delivery.targetUrl).toBe('https://example.com/callback');
        // Leased now: a second batch takes none of them, and the first lease holder completes.
        expect(await store.deliveries.claimMany(ids, 'b', at(10), at(40))).toEqual([]);
        expect(await store.deliveries.complete('d1', 'b', DELIVERED)).toBe(false);
        expect(await store.deliveries.complete('d1', 'a', DELIVERED)).toBe(true);
        // Once the leases run out, what is still pending and due is claimed again.
        const later = await store.deliveries.claimMany(ids, 'b', at(100), at(130));
        expect(later.map((claimed) => claimed.delivery.id).sort()).toEqual([
          'd2',
          'd3',
          'd4',
          'd5',
        ]);
      }));

    it('gives each of a set of attempts to exactly one of concurrent batch claimers', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        const ids = Array.from({ length: 20 }, (_, index) => `d${index + 1}`);
        await store.deliveries.insertMany(ids.map((id) => delivery(id)));
        // Overlapping batches, in several orders, as several processes' dispatchers make them.
        const batches = await Promise.all(
          ['a', 'b', 'c', 'd'].map((owner, index) =>
            store.deliveries.claimMany(
              index % 2 === 0 ? ids : [...ids].reverse().slice(index),
              owner,
              at(5),
              at(35),
            ),
          ),
        );
        const claimed = batches.flat().map((taken) => taken.delivery.id);
        expect(claimed.sort()).toEqual([...ids].sort());
        for (const [index, batch] of batches.entries()) {
          const owner = ['a', 'b', 'c', 'd'][index];
          for (const taken of batch) expect(taken.delivery.leaseOwner).toBe(owner);
        }
      }));

    it('ends the webhook streak with a 2xx completion, and only with one that settled the attempt', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store, 2);
        await store.deliveries.insertMany([
          delivery('d1'),
          delivery('d2'),
          delivery('d3', { webhookId: null, targetUrl: 'https://example.com/callback' }),
        ]);
        const streak = async () => (await store.webhooks.findById('c1', 'w1'))?.exhaustedChains;
        expect(await store.deliveries.claim('d1', 'a', at(5), at(35))).toBeDefined();
        // Not the lease holder: nothing recorded, the streak stands.
        const reset = { resetStreak: true };
        expect(await store.deliveries.complete('d1', 'b', DELIVERED, reset)).toBe(false);
        expect(await streak()).toBe(2);
        // Without the reset, the completion leaves the streak alone.
        expect(await store.deliveries.claim('d2', 'a', at(5), at(35))).toBeDefined();
        expect(await store.deliveries.complete('d2', 'a', DELIVERED)).toBe(true);
        expect(await streak()).toBe(2);
        expect(await store.deliveries.complete('d1', 'a', DELIVERED, reset)).toBe(true);
        expect(await streak()).toBe(0);
        expect(await store.deliveries.findForWebhook('c1', 'w1', 'd1')).toEqual(
          delivery('d1', DELIVERED),
        );
        // Settled already: a second completion changes nothing.
        expect(await store.deliveries.complete('d1', 'a', DELIVERED, reset)).toBe(false);
        // A callback URL's attempt has no streak to end; it is recorded all the same.
        expect(await store.deliveries.claim('d3', 'a', at(5), at(35))).toBeDefined();
        expect(await store.deliveries.complete('d3', 'a', DELIVERED, reset)).toBe(true);
        expect(await store.deliveries.countPending()).toBe(0);
      }));

    it('appends an event with its first attempts in one write, all or nothing in a transaction', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        const event = (id: string) => ({
          id,
          customerId: 'c1',
          type: 'message.sent' as const,
          payload: `{"id":"${id}"}`,
          correlationId: 'cor',
          messageId: null,
          callbackUrl: 'https://example.com/callback',
          createdAt: at(1),
        });
        const callback = { webhookId: null, targetUrl: 'https://example.com/callback' };
        await store.events.insert(event('e2'), [delivery('d1', { eventId: 'e2' })]);
        await store.events.insert(event('e3'), [
          delivery('d2', { eventId: 'e3' }),
          delivery('d3', { eventId: 'e3', ...callback }),
        ]);
        await store.events.insert(event('e4'), []);
        expect(await store.events.findById('c1', 'e2')).toEqual(event('e2'));
        expect(await store.events.findById('c1', 'e4')).toEqual(event('e4'));
        expect(await store.deliveries.findForWebhook('c1', 'w1', 'd1')).toEqual(
          delivery('d1', { eventId: 'e2' }),
        );
        expect(await store.deliveries.findForWebhook('c1', 'w1', 'd2')).toEqual(
          delivery('d2', { eventId: 'e3' }),
        );
        expect(await store.deliveries.listCallbacks('c1', { limit: 10 })).toEqual([
          delivery('d3', { eventId: 'e3', ...callback }),
        ]);
        // An attempt that cannot be stored (no such webhook): neither it nor its event is.
        const missing = { eventId: 'e5', webhookId: 'missing' };
        for (const attempts of [
          [delivery('d4', missing)],
          [delivery('d4', { eventId: 'e5' }), delivery('d5', missing)],
        ]) {
          await expect(
            store.transaction((tx) => tx.events.insert(event('e5'), attempts)),
          ).rejects.toThrow();
          expect(await store.events.findById('c1', 'e5')).toBeUndefined();
        }
        expect(await store.deliveries.countPending()).toBe(3);
      }));

    it('runs grouped work, each of its steps committed', () =>
      withSeededStore(async (store) => {
        await seedDeliveryQueue(store);
        await store.deliveries.insertMany([delivery('d1')]);
        const claimed = await store.grouped((repositories) =>
          repositories.deliveries.claim('d1', 'a', at(5), at(35)),
        );
        expect(claimed?.delivery.leaseOwner).toBe('a');
        // Committed: another claimer sees the lease.
        expect(await store.deliveries.claim('d1', 'b', at(6), at(36))).toBeUndefined();
        await expect(
          store.grouped(async () => {
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
      }));
  });
}
