import { INSTANCE_SECRET_FIELDS, type Instance } from '@switchboard/contract';
import type { InstanceRecord } from '../../store/instance-repository';

/** What a masked secret starts with. */
const MASK = '****';

/**
 * A secret as the API answers it: `****` and, for values of 16 characters or more, their last 4
 * (enough to recognize a token, not to use it).
 */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** The names of the secret settings of `provider`. */
export function secretFieldsOf(provider: InstanceRecord['provider']): readonly string[] {
  return INSTANCE_SECRET_FIELDS[provider];
}

/** `config` with every secret setting masked. */
function maskedConfig(record: Pick<InstanceRecord, 'provider' | 'config'>) {
  const masked: Record<string, unknown> = { ...record.config };
  for (const field of secretFieldsOf(record.provider)) {
    const value = masked[field];
    if (typeof value === 'string') masked[field] = maskSecret(value);
  }
  return masked;
}

/** The URL where the upstream of `record` posts its webhooks. */
export function ingressUrlOf(
  publicBaseUrl: string,
  record: Pick<InstanceRecord, 'id' | 'ingressToken'>,
): string {
  return `${publicBaseUrl}/providers/${record.id}/webhook/${record.ingressToken}`;
}

/** The operator API shape of an instance: secrets masked, its ingress URL spelled out. */
export function toInstanceView(record: InstanceRecord, publicBaseUrl: string): Instance {
  return {
    id: record.id,
    name: record.name,
    provider: record.provider,
    channels: record.channels,
    config: maskedConfig(record),
    enabled: record.enabled,
    ingressUrl: ingressUrlOf(publicBaseUrl, record),
    healthStatus: record.healthStatus,
    healthWarnings: record.healthWarnings,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}
