import { describe, expect, it } from 'vitest';
import { type ChannelPlanInput, ChannelPlanner, type RouteStop } from './channel-planner';

const MAC: RouteStop = { channel: 'imessage', instanceId: 'mac' };
const TWILIO: RouteStop = { channel: 'sms', instanceId: 'twilio' };

function planner(overrides: Partial<ChannelPlanInput> = {}): ChannelPlanner {
  return new ChannelPlanner({
    message: {
      id: 'msg_1',
      customerId: 'cus_1',
      retryCount: 0,
      to: '+14155550100',
      providerChatId: null,
      pinned: false,
    },
    stops: [MAC, TWILIO],
    withheld: [],
    ...overrides,
  });
}

const served = { served: true, capability: null };
const story = (plan: ChannelPlanner) =>
  plan.drain().map((step) => `${step.decision}:${step.reason}:${step.channel ?? '-'}`);

describe('the channel planner', () => {
  it('skips a channel the recipient is definitely not on, keeping the cached answer and its age', () => {
    const plan = planner();
    const capability = { source: 'cache' as const, ageMs: 42_000, reachable: false };
    expect(plan.consider(MAC, { served: true, capability }, 1_000)).toBe('skip');
    expect(plan.departure).toEqual({
      channel: 'imessage',
      reason: 'unavailable',
      code: 'NO_CHANNEL_AVAILABLE',
      message: '+14155550100 is not reachable on imessage',
    });
    const [step] = plan.drain();
    expect(step).toMatchObject({
      messageId: 'msg_1',
      customerId: 'cus_1',
      attempt: 0,
      at: new Date(1_000),
      decision: 'skipped',
      reason: 'recipient_unreachable',
      instanceId: 'mac',
      capability,
    });
  });

  it('skips a channel its instance does not serve, and tries an unknown answer', () => {
    const plan = planner();
    expect(plan.consider(MAC, { served: false, capability: null }, 0)).toBe('skip');
    expect(plan.consider(TWILIO, served, 0)).toBe('try');
    plan.trying(TWILIO, 0);
    expect(story(plan)).toEqual([
      'skipped:channel_not_served:imessage',
      'tried:reachability_unknown:sms',
    ]);
  });

  it('moves on after a refusal that allows it, and reports the last send failure when none is left', () => {
    const plan = planner();
    plan.consider(MAC, served, 0);
    plan.trying(MAC, 0);
    const refusal = { code: 'IMESSAGE_SEND_FAILED', message: 'not registered', fallback: true };
    expect(plan.refused(MAC, refusal, 5)).toBe('next');
    expect(plan.departure).toMatchObject({ channel: 'imessage', reason: 'send_failed' });
    plan.consider(
      TWILIO,
      { served: true, capability: { source: 'provider', ageMs: 0, reachable: false } },
      6,
    );
    expect(plan.exhausted(7)).toEqual({
      channel: 'imessage',
      code: 'IMESSAGE_SEND_FAILED',
      message: 'not registered',
    });
    expect(story(plan)).toEqual([
      'tried:reachability_unknown:imessage',
      'refused:provider_refused:imessage',
      'skipped:recipient_unreachable:sms',
      'failed:no_channel_left:imessage',
    ]);
  });

  it('ends routing on an error that forbids moving on, without a step of its own for the end', () => {
    const plan = planner({ withheld: ['sms'], stops: [MAC] });
    plan.consider(MAC, served, 0);
    plan.trying(MAC, 0);
    const timeout = { code: 'PROVIDER_TIMEOUT', message: 'no answer', fallback: false };
    expect(plan.refused(MAC, timeout, 1)).toBe('stop');
    expect(plan.exhausted(2)).toMatchObject({ code: 'PROVIDER_TIMEOUT' });
    expect(story(plan)).toEqual([
      'tried:reachability_unknown:imessage',
      'failed:provider_error:imessage',
    ]);
  });

  it('names the channels fallback left out, and reports unreachable on every channel when none was tried', () => {
    const plan = planner({ stops: [MAC], withheld: ['sms'] });
    plan.consider(MAC, { served: false, capability: null }, 0);
    expect(plan.exhausted(1)).toEqual({
      channel: null,
      code: 'NO_CHANNEL_AVAILABLE',
      message: 'The sending instance does not serve imessage',
    });
    expect(story(plan)).toEqual([
      'skipped:channel_not_served:imessage',
      'skipped:fallback_disabled:sms',
      'failed:no_channel_left:-',
    ]);
  });

  it('records a channel that cannot take the files as a send failure, and an acceptance with its id', () => {
    const plan = planner();
    plan.consider(MAC, served, 0);
    plan.filesRefused(MAC, { code: 'PAYLOAD_TOO_LARGE', message: 'too big' }, 1);
    expect(plan.departure).toMatchObject({ reason: 'send_failed', code: 'PAYLOAD_TOO_LARGE' });
    plan.consider(TWILIO, served, 2);
    plan.trying(TWILIO, 2);
    plan.accepted(TWILIO, 'SM123', 3);
    const steps = plan.drain();
    expect(steps.map((step) => step.reason)).toEqual([
      'media_not_accepted',
      'reachability_unknown',
      'provider_accepted',
    ]);
    expect(steps[2]).toMatchObject({ externalId: 'SM123', instanceId: 'twilio' });
    expect(plan.drain()).toEqual([]);
  });

  it('tries a resumed attempt as it is, and a pinned chat on its own channel', () => {
    const resumed = planner({ resumed: 'imessage' });
    expect(resumed.consider(MAC, { served: false, capability: null }, 0)).toBe('try');
    resumed.trying(MAC, 0);
    const pinned = planner({
      message: {
        id: 'msg_2',
        customerId: 'cus_1',
        retryCount: 2,
        to: null,
        providerChatId: 'chat',
        pinned: true,
      },
      stops: [MAC],
    });
    pinned.consider(MAC, served, 0);
    pinned.trying(MAC, 0);
    expect(story(resumed)).toEqual(['tried:resumed:imessage']);
    const [step] = pinned.drain();
    expect(step).toMatchObject({ reason: 'pinned_to_chat', attempt: 2 });
  });
});
