import type { SendMessageInput } from '@switchboard/contract';

const TEXTS = [
  'Your order #{n} has shipped and should arrive on Tuesday. Track it any time from your account page. Reply STOP to opt out.',
  'Hi! Your appointment with Dr. Rivera is confirmed for tomorrow at 10:30. Reply C to confirm or R to reschedule.',
  'Your table for 4 at Luma is booked for Friday 8pm. We will hold it for 15 minutes. Need to change it? Just reply here.',
];

/**
 * A realistic send body, the way an integration sends a transactional notification: about 120
 * characters of text, metadata with a couple of ids, and an idempotency key unique per send.
 */
export function realisticSendBody(to: string, sequence: number, runTag: string): SendMessageInput {
  const text = (TEXTS[sequence % TEXTS.length] ?? '').replace('{n}', String(10_000 + sequence));
  return {
    to,
    content: { text },
    idempotencyKey: `bench-${runTag}-${sequence}`,
    metadata: { orderId: `ord_${100_000 + sequence}`, campaign: 'bench' },
  };
}
