import type { WhatsAppSessionStatus } from '@switchboard/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type {
  WhatsAppSessionRecord,
  WhatsAppSessionRepository,
} from '../whatsapp-session-repository';
import { first, type PgExecutor } from './pg-executor';
import { whatsappSessions } from './pg-schema-chats';

/** {@link WhatsAppSessionRepository} on PostgreSQL. */
export class PgWhatsAppSessionRepository implements WhatsAppSessionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  find(customerId: string, phoneNumber: string): Promise<WhatsAppSessionRecord | undefined> {
    return this.run((db) =>
      db
        .select()
        .from(whatsappSessions)
        .where(
          and(
            eq(whatsappSessions.customerId, customerId),
            eq(whatsappSessions.phoneNumber, phoneNumber),
          ),
        )
        .limit(1)
        .then(first),
    );
  }

  listByCustomer(customerId: string): Promise<WhatsAppSessionRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(whatsappSessions)
        .where(eq(whatsappSessions.customerId, customerId))
        .orderBy(asc(whatsappSessions.phoneNumber)),
    );
  }

  listInStatus(statuses: readonly WhatsAppSessionStatus[]): Promise<WhatsAppSessionRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(whatsappSessions)
        .where(inArray(whatsappSessions.status, [...statuses]))
        .orderBy(asc(whatsappSessions.customerId), asc(whatsappSessions.phoneNumber)),
    );
  }

  save(session: WhatsAppSessionRecord): Promise<void> {
    const { customerId: _c, phoneNumber: _p, ...changes } = session;
    return this.run(async (db) => {
      await db
        .insert(whatsappSessions)
        .values(session)
        .onConflictDoUpdate({
          target: [whatsappSessions.customerId, whatsappSessions.phoneNumber],
          set: changes,
        });
    });
  }
}
