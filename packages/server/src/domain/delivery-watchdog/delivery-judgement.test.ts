import { describe, expect, it } from 'vitest';
import type { SendOutcomeRecord } from '../../store/message-repository';
import { judgeDeliveries } from './delivery-judgement';
import { watchdogSettingsOf } from './watchdog-settings';

const NOW = 10_000_000;
const settings = watchdogSettingsOf({
  deliveryWatchdog: { threshold: 0.5, minSample: 2, sampleSize: 3, windowSeconds: { sms: 60 } },
});

/** An sms send from `from` sent `agoMs` before NOW, delivered `deliveredAfterMs` later (or never). */
function send(agoMs: number, deliveredAfterMs?: number, from = '+14155550100'): SendOutcomeRecord {
  const sentAt = NOW - agoMs;
  const deliveredAt = deliveredAfterMs === undefined ? null : sentAt + deliveredAfterMs;
  return {
    from,
    channel: 'sms',
    status: deliveredAt === null ? 'sent' : 'delivered',
    sentAt,
    deliveredAt,
  };
}

describe('judgeDeliveries', () => {
  it('counts a send delivered after its window as undelivered, and leaves young sends unjudged', () => {
    const [health] = judgeDeliveries(
      [send(120_000, 90_000), send(90_000, 1_000), send(30_000)],
      settings,
      NOW,
    );
    expect(health).toMatchObject({ judged: 2, undelivered: 1, share: 0.5, stalling: true });
  });

  it('judges only the newest sampleSize sends, per number', () => {
    const sends = [
      send(500_000),
      send(400_000, 1_000),
      send(300_000, 1_000),
      send(200_000, 1_000),
      send(200_000, undefined, '+14155550101'),
    ];
    const verdicts = judgeDeliveries(sends, settings, NOW);
    expect(verdicts.find((h) => h.number === '+14155550100')).toMatchObject({
      judged: 3,
      undelivered: 0,
      stalling: false,
    });
    // One judged send is below the minimum sample: no verdict of stalling yet.
    expect(verdicts.find((h) => h.number === '+14155550101')).toMatchObject({
      judged: 1,
      share: 1,
      stalling: false,
    });
  });

  it('fills the defaults in and keeps the given window', () => {
    expect(settings.windowSeconds).toEqual({ imessage: 600, sms: 60, whatsapp: 600 });
    expect(watchdogSettingsOf({})).toMatchObject({ enabled: true, threshold: 0.5, minSample: 10 });
  });
});
