import type { RetentionKind, RetentionPeriods } from '../../store/retention-repository';

/** Every kind retention prunes, in the order a sweep handles them. */
export const RETENTION_KINDS: readonly RetentionKind[] = [
  'messageContent',
  'inboundAttachments',
  'deliveryLog',
  'eventLog',
];

/** The shorter of two periods, null meaning forever. */
function shorter(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

/**
 * The periods that apply to a customer: each override where it is set, the deployment's
 * otherwise; then the delivery log is kept no longer than the event log (an attempt cannot
 * outlive its event), and the event log no longer than message content (events carry bodies).
 */
export function effectivePeriods(
  deployment: RetentionPeriods,
  overrides: RetentionPeriods | undefined,
): RetentionPeriods {
  const pick = (kind: RetentionKind) => overrides?.[kind] ?? deployment[kind];
  const messageContent = pick('messageContent');
  const eventLog = shorter(pick('eventLog'), messageContent);
  return {
    eventLog,
    deliveryLog: shorter(pick('deliveryLog'), eventLog),
    inboundAttachments: shorter(pick('inboundAttachments'), messageContent),
    messageContent,
  };
}

/**
 * The kinds whose override is longer than the deployment's period (a customer may keep less,
 * never more): empty when the overrides are acceptable.
 */
export function overridesTooLong(
  deployment: RetentionPeriods,
  overrides: RetentionPeriods,
): RetentionKind[] {
  return RETENTION_KINDS.filter((kind) => {
    const wanted = overrides[kind];
    const limit = deployment[kind];
    return wanted !== null && limit !== null && wanted > limit;
  });
}

/** No override: every kind follows the deployment. */
export const NO_OVERRIDES: RetentionPeriods = {
  eventLog: null,
  deliveryLog: null,
  inboundAttachments: null,
  messageContent: null,
};
