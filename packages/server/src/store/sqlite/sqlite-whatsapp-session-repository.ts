import type { WhatsAppSessionStatus } from '@switchboard/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type {
  WhatsAppSessionRecord,
  WhatsAppSessionRepository,
} from '../whatsapp-session-repository';
import type { SqliteExecutor } from './executor';
import { whatsappSessions } from './schema-chats';

/** {@link WhatsAppSessionRepository} on SQLite. */
export class SqliteWhatsAppSessionRepository implements WhatsAppSessionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

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
        .get(),
    );
  }

  listByCustomer(customerId: string): Promise<WhatsAppSessionRecord[]> {
    return this.run((db) =>
      db.select().from(whatsappSessions).where(eq(whatsappSessions.customerId, customerId)).all(),
    );
  }

  listInStatus(statuses: readonly WhatsAppSessionStatus[]): Promise<WhatsAppSessionRecord[]> {
    return this.run((db) =>
      db
        .select()
        .from(whatsappSessions)
        .where(inArray(whatsappSessions.status, [...statuses]))
        .all(),
    );
  }

  save(session: WhatsAppSessionRecord): Promise<void> {
    return this.run((db) => {
      db.insert(whatsappSessions)
        .values(session)
        .onConflictDoUpdate({
          target: [whatsappSessions.customerId, whatsappSessions.phoneNumber],
          set: {
            instanceId: session.instanceId,
            status: session.status,
            jid: session.jid,
            qrCode: session.qrCode,
            disconnectReason: session.disconnectReason,
            lastConnectedAt: session.lastConnectedAt,
            lastDisconnectedAt: session.lastDisconnectedAt,
            updatedAt: session.updatedAt,
          },
        })
        .run();
    });
  }
}
