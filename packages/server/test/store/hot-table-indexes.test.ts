import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/store/sqlite/connection';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { tempDir } from '../support/test-app';

/**
 * Every secondary index of the tables each message writes several times (its row, its attempt,
 * its events, a delivery row per receiver and event), with the query it serves: an index costs every insert
 * and every status change of its table, so one nobody reads is pure cost. Adding an index means
 * adding it here with its reason.
 */
const HOT_TABLE_INDEXES: Record<string, Record<string, string>> = {
  messages: {
    messages_customer_created_idx: 'GET /v1/messages, newest first (keyset cursor)',
    messages_customer_status_idx: 'GET /v1/messages?status=',
    messages_customer_to_idx: 'GET /v1/messages?to=',
    messages_scheduled_idx:
      'the scheduler and the scheduled list (partial: scheduled messages only)',
    messages_status_updated_idx:
      'start-up reconciliation, stale take-over, the queued sweep and status counts (by status)',
    messages_instance_external_idx: 'status callbacks and inbound replies by provider id',
    messages_customer_idempotency_key_unique: 'Idempotency-Key (unique)',
    messages_created_idx:
      "GET /admin/v1/messages, every customer's newest first, and the window of GET /admin/v1/stats",
  },
  // Read by primary key only: a status update that does not echo its attempt finds the message
  // by provider id (messages_instance_external_idx) and derives its current attempt's id.
  message_attempts: {},
  events: {
    events_customer_created_idx: 'GET /v1/events replay and the event log',
    events_message_idx:
      "GET /v1/messages/{id}/events, a message's events oldest first (partial: events about a message only)",
  },
  webhook_deliveries: {
    webhook_deliveries_pending_target_idx:
      'the dispatcher queue, and every look-up of pending attempts (partial: the backlog only)',
    webhook_deliveries_webhook_idx: "GET /v1/webhooks/:id/deliveries (a webhook's log)",
    webhook_deliveries_event_idx: '?eventId= on the delivery logs; the events foreign key',
    webhook_deliveries_callbacks_idx: 'the callback delivery log (partial: callback rows only)',
    webhook_deliveries_failed_attempted_idx:
      'the failed attempts of GET /admin/v1/stats (partial: failures only)',
  },
};

/** Runs `check` with the query plans of a freshly migrated database. */
async function withQueryPlans(check: (plan: (query: string) => string) => void): Promise<void> {
  const path = join(tempDir(), 'indexes.db');
  await (await openSqliteStore(path)).close();
  const sqlite = openSqlite(path);
  try {
    check((query) =>
      (sqlite.prepare(`explain query plan ${query}`).all() as Array<{ detail: string }>)
        .map((row) => row.detail)
        .join('; '),
    );
  } finally {
    sqlite.close();
  }
}

describe('indexes of the hot tables', () => {
  it('are exactly the ones a query needs', async () => {
    const path = join(tempDir(), 'indexes.db');
    await (await openSqliteStore(path)).close();
    const sqlite = openSqlite(path);
    try {
      for (const [table, expected] of Object.entries(HOT_TABLE_INDEXES)) {
        const names = (
          sqlite
            .prepare(
              "select name from sqlite_master where type = 'index' and tbl_name = ? and name not like 'sqlite_autoindex_%'",
            )
            .all(table) as Array<{ name: string }>
        ).map((row) => row.name);
        expect(names.sort(), table).toEqual(Object.keys(expected).sort());
      }
    } finally {
      sqlite.close();
    }
  });

  it('serve the scheduler from the partial scheduled index, and the other look-ups by status alone beside it', async () => {
    await withQueryPlans((plan) => {
      // dueScheduledIds and the scheduled list's page: `status` compared with the constant.
      for (const query of [
        "select id from messages where status = 'scheduled' and scheduled_at <= 1 and deleted_at is null order by scheduled_at, id limit 200",
        "select * from messages where customer_id = 'c' and deleted_at is null and status = 'scheduled' order by scheduled_at, id limit 50",
      ]) {
        expect(plan(query), query).toContain('USING INDEX messages_scheduled_idx');
      }
      // idsInStatus (the queued sweep, pending recovery), countByStatus, staleIds: never a scan of
      // every message.
      for (const query of [
        "select id from messages where status in ('queued') and deleted_at is null order by created_at, id limit 200",
        "select status, count(*) from messages where status in ('queued', 'pending') group by status",
        "select id from messages where status = 'pending' and updated_at <= 1 and deleted_at is null order by updated_at, id limit 200",
      ]) {
        expect(plan(query), query).toContain('messages_status_updated_idx');
      }
    });
  });

  it("find a status update's message by provider id, and its attempt by primary key", async () => {
    await withQueryPlans((plan) => {
      const byProviderId =
        "select * from messages where instance_id = 'i' and external_id = 'x' order by created_at desc, id desc limit 1";
      expect(plan(byProviderId)).toContain('USING INDEX messages_instance_external_idx');
      const attempt = "select * from message_attempts where attempt_id = 'm:0:sms'";
      expect(plan(attempt)).toContain('USING INDEX sqlite_autoindex_message_attempts_1');
    });
  });

  it('serve the look-ups of pending attempts from the partial backlog index', async () => {
    await withQueryPlans((plan) => {
      // The shapes of countPending, listOverdue and releaseAllLeases: `status` compared with a
      // constant, which is what lets SQLite use a partial index.
      for (const query of [
        "select count(*) from webhook_deliveries where status = 'pending'",
        "select id, next_attempt_at from webhook_deliveries where status = 'pending' and next_attempt_at <= 1 and (lease_until is null or lease_until <= 1)",
        "update webhook_deliveries set lease_owner = null, lease_until = null where status = 'pending' and lease_owner is not null",
      ]) {
        expect(plan(query), query).toContain('webhook_deliveries_pending_target_idx');
      }
    });
  });

  it("serve the operator's message list and stats from their indexes", async () => {
    await withQueryPlans((plan) => {
      const newest =
        'select * from messages where deleted_at is null and suppressed = 0 order by created_at desc, id desc limit 51';
      expect(plan(newest)).toContain('USING INDEX messages_created_idx');
      // `+status`: grouping by the bare column made SQLite walk the whole status index instead.
      const window =
        "select status, fallback_triggered, count(*) from messages where created_at >= 1 and direction = 'outbound' group by +status, fallback_triggered";
      expect(plan(window)).toContain('USING INDEX messages_created_idx');
      const failed =
        "select count(*) from webhook_deliveries where status in ('retrying', 'failed') and attempted_at >= 1";
      expect(plan(failed)).toContain('webhook_deliveries_failed_attempted_idx');
    });
  });

  it("serve a message's events from the partial message index, and their attempts by event", async () => {
    await withQueryPlans((plan) => {
      // The shapes of listByMessage (first page and after a cursor) and listForEvents.
      for (const query of [
        "select * from events where message_id = 'm' and customer_id = 'c' order by created_at, id limit 51",
        "select * from events where message_id = 'm' and customer_id = 'c' and (created_at > 1 or (created_at = 1 and id > 'e')) order by created_at, id limit 51",
      ]) {
        expect(plan(query), query).toContain('USING INDEX events_message_idx (message_id=?');
      }
      const attempts =
        "select * from webhook_deliveries where event_id in ('e1', 'e2') and customer_id = 'c' order by id";
      expect(plan(attempts)).toContain('USING INDEX webhook_deliveries_event_idx (event_id=?)');
    });
  });
});
