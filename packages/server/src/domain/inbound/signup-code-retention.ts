import type { Repositories } from '../../store/store';

/** How long verification codes are kept: the spec's 15-minute signup-codes window. */
const SIGNUP_CODE_RETENTION_MS = 15 * 60 * 1000;

/**
 * Forgets the verification codes older than the window, and erases the text of the suppressed
 * messages that carried them (they exist only for the signup codes, so nothing else may keep a
 * one-time code around). Messages delivered with `otp` (annotate) are the customer's and stay.
 */
export async function purgeExpiredSignupCodes(repos: Repositories, now: Date): Promise<void> {
  const expired = await repos.signupCodes.deleteBefore(
    new Date(now.getTime() - SIGNUP_CODE_RETENTION_MS),
  );
  for (const messageId of expired) {
    const message = await repos.messages.findByIdInAnyCustomer(messageId);
    if (!message?.suppressed) continue;
    await repos.messages.update(messageId, { text: '', updatedAt: now, deletedAt: now });
  }
}
