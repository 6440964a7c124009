import { afterEach, describe, expect, it } from 'vitest';
import { FakeBlueBubbles } from './fake-bluebubbles';
import { ADAPTER_RELIES_ON, FAKE_FIDELITY } from './fake-bluebubbles-fidelity';
import { FAKE_POSTED_EVENT_TYPES } from './fake-bluebubbles-model';

/** Routes that drive the fake by hand: not BlueBubbles behaviour, so not in the table. */
const CONTROL_PREFIX = '/_fake/';
const CITATION = /^(bluebubbles-server@f2e2286 packages\/\S+:\d+(-\d+)?|https:\/\/\S+)$/;

describe('the fake BlueBubbles Server answers to the upstream', () => {
  let fake: FakeBlueBubbles | undefined;

  afterEach(async () => {
    await fake?.stop();
    fake = undefined;
  });

  it('has a fidelity row for every route it serves, and serves every route a row names', async () => {
    fake = new FakeBlueBubbles();
    await fake.start();
    const served = fake.routes.filter((route) => !route.split(' ')[1]?.startsWith(CONTROL_PREFIX));
    const rows = FAKE_FIDELITY.filter((row) => row.kind === 'route').map((row) => row.subject);
    expect(served.length).toBeGreaterThan(20);
    expect(served.filter((route) => !rows.includes(route))).toEqual([]);
    expect(rows.filter((route) => !served.includes(route))).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it('has a fidelity row for every event type it can post, and posts every event a row names', () => {
    const rows = FAKE_FIDELITY.filter((row) => row.kind === 'event').map((row) => row.subject);
    expect([...FAKE_POSTED_EVENT_TYPES].filter((type) => !rows.includes(type))).toEqual([]);
    expect(
      rows.filter((type) => !(FAKE_POSTED_EVENT_TYPES as readonly string[]).includes(type)),
    ).toEqual([]);
  });

  it('posts only event types the table lists, whatever it is made to do', async () => {
    fake = new FakeBlueBubbles({ stepMs: 1 });
    await fake.start();
    const group = 'iMessage;+;chat1';
    fake.addChat(group, ['+14155550111', '+14155550122'], 'Team');
    const message = fake.inbound({ from: '+14155550111', text: 'Hi' });
    fake.tapback({ from: '+14155550111', target: message.guid, reaction: 'love' });
    fake.contactChanges(message.guid, 'Hi!');
    fake.contactTyping('+14155550111', true);
    fake.chatReadOnMac(group);
    for (const action of ['rename', 'add', 'remove', 'leave', 'photo', 'photo-removed'] as const) {
      fake.groupChange({ chatGuid: group, actor: '+14155550111', action, title: 'New' });
    }
    fake.audioKept({ from: '+14155550111', target: message.guid });
    fake.faceTime({ caller: '+14155550111' });
    fake.switches.faceTimeCalling = true;
    fake.faceTime({ caller: '+14155550111' });
    fake.notOnIMessage.add('+14155550199');
    fake.addChat('iMessage;-;+14155550199', ['+14155550199']);
    const api = (path: string, body: unknown) =>
      fetch(`${fake?.baseUrl}/api/v1${path}?password=${fake?.password}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await api('/message/text', {
      chatGuid: 'iMessage;-;+14155550111',
      message: 'Yo',
      tempGuid: 't1',
    });
    await api('/message/text', {
      chatGuid: 'iMessage;-;+14155550199',
      message: 'Yo',
      tempGuid: 't2',
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await fake.settled();
    const posted = new Set(fake.webhookCalls.map((call) => call.type));
    expect(
      [...posted].filter((type) => !(FAKE_POSTED_EVENT_TYPES as readonly string[]).includes(type)),
    ).toEqual([]);
    expect([...posted].sort()).toEqual([...FAKE_POSTED_EVENT_TYPES].sort());
  });

  it('cites the upstream at the pinned commit on every row of both sections', () => {
    for (const row of [...FAKE_FIDELITY, ...ADAPTER_RELIES_ON]) {
      expect(row.upstream.length, row.subject).toBeGreaterThan(0);
      for (const citation of row.upstream) expect(citation, row.subject).toMatch(CITATION);
    }
    expect(ADAPTER_RELIES_ON.every((row) => row.kind === 'adapter')).toBe(true);
  });
});
