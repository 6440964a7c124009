import type { SendMessageResult } from '@switchboard/contract';
import {
  type ApiAnswer,
  apiRequest,
  assertImplemented,
  UnexpectedAnswerError,
} from '../api/api-client';
import { recipientNumber } from '../seed/phone-numbers';
import { realisticSendBody } from '../seed/send-body';

/**
 * Sends one realistic message and checks it is accepted (202): the send endpoint exists and the
 * seeding worked. Throws EndpointNotAvailableError on a 501.
 */
export async function probeSend(
  baseUrl: string,
  key: string,
): Promise<{ answer: ApiAnswer; message: SendMessageResult }> {
  const answer = await apiRequest(baseUrl, 'POST', '/v1/messages', {
    token: key,
    body: realisticSendBody(recipientNumber('imessage-delivered', 0), 0, `probe-${Date.now()}`),
  });
  assertImplemented('POST /v1/messages', answer);
  if (answer.status !== 202) throw new UnexpectedAnswerError('POST /v1/messages', answer);
  return { answer, message: (answer.body as { data: SendMessageResult }).data };
}
