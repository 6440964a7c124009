import type { Message } from '@switchboard/contract';
import Database from 'better-sqlite3';
import { apiData, apiRequest, assertImplemented, UnexpectedAnswerError } from '../api/api-client';
import { SwitchboardServer } from '../process/switchboard-server';
import { type RecipientBehaviour, recipientNumber } from './phone-numbers';
import { realisticSendBody } from './send-body';
import { seedTenants } from './tenants';

/** The behaviours the template holds one real message of each. */
export const TEMPLATE_BEHAVIOURS: readonly RecipientBehaviour[] = [
  'imessage-delivered',
  'imessage-read',
  'sms-delivered',
  'failed',
];

const FINAL_STATUSES = new Set(['delivered', 'read', 'failed']);

/** A database the real server wrote: a customer, a key, and one finished message per behaviour. */
export interface TemplateDatabase {
  path: string;
  /** The customer's API key (valid in every copy of the file). */
  key: string;
}

/**
 * Has the real server write the rows that large databases are then cloned from: it seeds a
 * customer through the admin API, sends one realistic message per simulator behaviour, waits
 * until each is final, and stops (checkpointing the WAL into the file).
 */
export async function createTemplateDatabase(path: string): Promise<TemplateDatabase> {
  const server = await SwitchboardServer.start({ databasePath: path, label: 'growth-template' });
  try {
    const [tenant] = await seedTenants(server.url, { customers: 1, keysPerCustomer: 1 });
    const key = tenant?.keys[0] ?? '';
    const ids: string[] = [];
    for (const [index, behaviour] of TEMPLATE_BEHAVIOURS.entries()) {
      const answer = await apiRequest(server.url, 'POST', '/v1/messages', {
        token: key,
        body: realisticSendBody(recipientNumber(behaviour, 0), index, 'template'),
      });
      assertImplemented('POST /v1/messages', answer);
      if (answer.status !== 202) throw new UnexpectedAnswerError('POST /v1/messages', answer);
      ids.push((answer.body as { data: { id: string } }).data.id);
    }
    const deadline = performance.now() + 30_000;
    for (const id of ids) {
      const first = await apiRequest(server.url, 'GET', `/v1/messages/${id}`, { token: key });
      assertImplemented('GET /v1/messages/:id', first);
      for (;;) {
        const message = await apiData<Message>(server.url, 'GET', `/v1/messages/${id}`, {
          token: key,
          expectedStatus: 200,
        });
        if (FINAL_STATUSES.has(message.status)) break;
        if (performance.now() > deadline) {
          throw new Error(
            `template message ${id} did not reach a final status (${message.status})`,
          );
        }
        await new Promise((wake) => setTimeout(wake, 50));
      }
    }
    return { path, key };
  } finally {
    await server.stop();
    // Fold the WAL into the file, so a plain file copy holds everything.
    const db = new Database(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}
