import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../errors';
import { ERROR_RESPONSE_CODES } from '../schemas/common';
import { chatsContract } from './chats';

/** Every error code a route documents, across its statuses. */
function codesOf(route: { responses: Record<string, unknown> }): ErrorCode[] {
  return Object.values(route.responses).flatMap((schema) =>
    typeof schema === 'object' && schema !== null ? (ERROR_RESPONSE_CODES.get(schema) ?? []) : [],
  );
}

describe('the Chats routes', () => {
  it('are the nine chat operations of the spec', () => {
    const routes = Object.entries(chatsContract).map(
      ([key, route]) => `${key} ${route.method} ${route.path}`,
    );
    expect(routes).toEqual([
      'createGroup POST /v1/chats/groups',
      'get GET /v1/chats/:chatId',
      'rename PUT /v1/chats/:chatId/name',
      'addParticipant POST /v1/chats/:chatId/participants',
      'removeParticipant DELETE /v1/chats/:chatId/participants/:participantId',
      'leave POST /v1/chats/:chatId/leave',
      'markRead POST /v1/chats/:chatId/read',
      'markUnread POST /v1/chats/:chatId/unread',
      'typing POST /v1/chats/:chatId/typing',
    ]);
  });

  it('are tagged Chats and answer the common errors', () => {
    for (const [key, route] of Object.entries(chatsContract)) {
      expect(route.metadata, key).toEqual({ tag: 'Chats' });
      expect(codesOf(route), key).toEqual(
        expect.arrayContaining(['UNAUTHORIZED', 'FORBIDDEN', 'RATE_LIMIT_EXCEEDED']),
      );
    }
  });

  it('answer CONVERSATION_NOT_FOUND for unknown chats', () => {
    for (const [key, route] of Object.entries(chatsContract)) {
      if (key === 'createGroup') continue;
      expect(codesOf(route), key).toContain('CONVERSATION_NOT_FOUND');
    }
  });

  it('document the channel and sender errors where they apply', () => {
    expect(codesOf(chatsContract.createGroup)).toEqual(
      expect.arrayContaining(['NAME_REQUIRED', 'INVALID_PHONE_NUMBER', 'ADDRESS_NOT_AUTHORIZED']),
    );
    expect(codesOf(chatsContract.markRead)).toContain('CHANNEL_NOT_SUPPORTED');
    expect(codesOf(chatsContract.markUnread)).toContain('CHANNEL_NOT_SUPPORTED');
    expect(codesOf(chatsContract.typing)).not.toContain('CHANNEL_NOT_SUPPORTED');
    expect(Object.keys(chatsContract.createGroup.responses)).toContain('201');
  });
});
