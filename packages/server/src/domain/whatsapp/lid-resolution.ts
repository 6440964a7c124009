import type { Repositories } from '../../store/store';

/**
 * Replaces the member `lid` by the phone JID `jid` (with `isPhoneResolved: true`) in the
 * customer's whatsapp chats on the instance; returns the ids of the chats that changed.
 * Idempotent: a chat already resolved does not change again.
 */
export async function resolveLidInChats(
  repos: Repositories,
  change: { customerId: string; instanceId: string; lid: string; jid: string; at: Date },
): Promise<string[]> {
  const changed: string[] = [];
  const chats = await repos.conversations.listWhatsAppOfInstance(
    change.customerId,
    change.instanceId,
  );
  for (const chat of chats) {
    if (!chat.participants.some((member) => member.handle === change.lid)) continue;
    const hasJid = chat.participants.some((member) => member.handle === change.jid);
    const participants = chat.participants.flatMap((member) => {
      if (member.handle !== change.lid) return [member];
      // Someone already listed by phone JID and by lid is one person: keep one entry.
      return hasJid ? [] : [{ ...member, handle: change.jid, isPhoneResolved: true }];
    });
    await repos.conversations.update(change.customerId, chat.id, {
      participants,
      updatedAt: change.at,
    });
    changed.push(chat.id);
  }
  return changed;
}
