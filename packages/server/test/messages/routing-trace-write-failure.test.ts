import { join } from 'node:path';
import type { Instance } from '@switchboard/contract';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { adminHeaders } from '../support/admin-helpers';
import { expectSuccess } from '../support/envelope-assertions';
import { buildMessagingApp, SENDER } from './messaging-fixture';

interface TraceStep {
  decision: string;
  reason: string;
}

describe('a routing step the database refuses (decision 0526)', () => {
  it('loses the wait from the trace, logs it, and still sends every paced message', async () => {
    // SQLite: the failure is injected in the database itself, not in the gateway's code.
    const t = await buildMessagingApp({ store: 'sqlite' });
    const database = new Database(join(t.dir, 'switchboard.db'));
    try {
      expectSuccess<Instance>(
        await t.app.inject({
          method: 'PATCH',
          url: `/admin/v1/instances/${t.instanceId}`,
          headers: adminHeaders,
          payload: { config: { pacing: { perSecond: 20, concurrency: 1 } } },
        }),
      );
      // The database refuses the steps written on their own (a pacing wait), as a full disk
      // would; the steps written with an attempt's transactions still go in.
      database.exec(`
        CREATE TRIGGER refuse_waits BEFORE INSERT ON message_routing_steps
        WHEN NEW.decision = 'waited'
        BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;
      `);
      const ids: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        ids.push(
          await t.sendOk({ to: `+1415555030${i}`, from: SENDER, content: { text: `${i}` } }),
        );
      }
      for (const id of ids) await t.waitForStatus(id, 'sent', 'delivered', 'read');

      const lost = t.logs.filter(
        (line) => line.msg === 'routing steps not recorded; the message goes on',
      );
      expect(lost.length).toBeGreaterThan(0);
      expect(ids).toContain(lost[0]?.messageId);
      // The trace of a message that waited tells the rest of its story.
      const waited = String(lost[0]?.messageId);
      const trace = await t.request('GET', `/v1/messages/${waited}/routing`);
      const steps = expectSuccess<{ steps: TraceStep[] }>(trace).steps;
      expect(steps.map((step) => step.decision)).not.toContain('waited');
      expect(steps.some((step) => step.decision === 'accepted')).toBe(true);
    } finally {
      database.close();
      await t.close();
    }
  });
});
