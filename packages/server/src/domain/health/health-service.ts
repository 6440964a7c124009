import type { Channel, HealthReport } from '@switchboard/contract';
import type { Clock } from '../../clock';
import type { MediaToolsStatus } from '../../media/media-tools';
import type { InstanceRecord } from '../../store/instance-repository';
import type { Store } from '../../store/store';

/** A provider check of the health report. */
interface ProviderCheck {
  status: string;
  warnings?: string[];
}

/**
 * Summarizes the instances serving one channel: `not_enabled` when none does, their common
 * status when they agree, `degraded` when some are healthy and some not, otherwise the worst.
 */
function summarizeInstances(instances: InstanceRecord[], channel: Channel): ProviderCheck {
  const serving = instances.filter((instance) => instance.channels.includes(channel));
  if (serving.length === 0) return { status: 'not_enabled' };
  const statuses = new Set(serving.map((instance) => instance.healthStatus));
  const warnings = serving.flatMap((instance) =>
    instance.healthWarnings.map((warning) => `${instance.name}: ${warning}`),
  );
  let status: string;
  if (statuses.size === 1) status = serving[0]?.healthStatus ?? 'unknown';
  else if (statuses.has('healthy')) status = 'degraded';
  else if (statuses.has('unhealthy')) status = 'unhealthy';
  else if (statuses.has('degraded')) status = 'degraded';
  else status = 'unknown';
  return warnings.length > 0 ? { status, warnings } : { status };
}

/** Builds the `GET /health` report. */
export class HealthService {
  /**
   * Creates the service; `media` tells whether media can be converted, `redis` checks Redis when
   * the deployment uses it.
   */
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly checks: {
      media?: { status(): Promise<MediaToolsStatus> };
      redis?: () => Promise<boolean>;
    } = {},
  ) {}

  /**
   * Checks the database (a real query) and Redis, and reports the provider instances. The
   * overall status is `degraded` when the database or a configured Redis is down; provider
   * health never changes it.
   */
  async report(): Promise<HealthReport> {
    const database = await this.store.ping().then(
      () => 'ok',
      () => 'down',
    );
    const redis = this.checks.redis
      ? await this.checks.redis().then(
          (up) => (up ? 'ok' : 'down'),
          () => 'down',
        )
      : 'not_configured';
    const instances =
      database === 'ok' ? await this.store.instances.list().catch(() => undefined) : undefined;
    const providerCheck = (channel: Channel): ProviderCheck =>
      instances ? summarizeInstances(instances, channel) : { status: 'unknown' };
    return {
      status: database === 'ok' && redis !== 'down' ? 'ok' : 'degraded',
      timestamp: new Date(this.clock.now()).toISOString(),
      checks: {
        database: { status: database },
        redis: { status: redis },
        imessage: providerCheck('imessage'),
        whatsapp: { ...providerCheck('whatsapp'), experimental: true },
        transcoding: await this.#transcoding(),
      },
    };
  }

  async #transcoding(): Promise<{ status: string; warnings?: string[] }> {
    const status = await this.checks.media?.status();
    if (!status) return { status: 'unavailable', warnings: ['no media engine configured'] };
    if (!status.available) return { status: 'unavailable', warnings: [status.reason] };
    const { outdated } = status.tools;
    return outdated === undefined
      ? { status: 'available' }
      : { status: 'available', warnings: [outdated] };
  }
}
