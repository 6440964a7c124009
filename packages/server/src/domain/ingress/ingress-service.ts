import { createHash, timingSafeEqual } from 'node:crypto';
import type { ProviderWebhookRequest, ProviderWebhookResponse } from '@switchboard/provider-kit';
import type { ProviderHub } from '../../providers/provider-hub';
import type { Store } from '../../store/store';
import { DomainError } from '../domain-error';

/** One message for an unknown instance and a wrong token alike: the caller learns nothing. */
const NOT_FOUND_MESSAGE = 'No such ingress';

/** True when the two tokens are equal, compared in constant time whatever their lengths. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return expected !== '' && timingSafeEqual(digest(given), digest(expected));
}

/**
 * The upstream ingress: authenticates a call by its instance's token and hands it to that
 * instance's adapter, whose answer goes back to the upstream as is.
 */
export class IngressService {
  /** An ingress over the store (instances and their tokens) and the running providers. */
  constructor(
    private readonly store: Pick<Store, 'instances'>,
    private readonly hub: Pick<ProviderHub, 'provider'>,
  ) {}

  /**
   * Handles one upstream call on `/providers/:instanceId/webhook/:token`.
   * @throws {DomainError} NOT_FOUND for an unknown or deleted instance, a wrong token or an
   * adapter that takes no webhooks; SERVICE_UNAVAILABLE while the instance is disabled (an
   * upstream that retries delivers later).
   */
  async handle(
    instanceId: string,
    token: string,
    request: ProviderWebhookRequest,
  ): Promise<ProviderWebhookResponse> {
    const instance = await this.store.instances.findById(instanceId);
    if (!instance || instance.deletedAt !== null || !sameToken(token, instance.ingressToken)) {
      throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    }
    if (!instance.enabled) {
      throw new DomainError('SERVICE_UNAVAILABLE', `The instance "${instance.name}" is disabled`);
    }
    const provider = await this.hub.provider(instance.id);
    if (!provider.handleWebhook) {
      throw new DomainError(
        'NOT_FOUND',
        `The instance "${instance.name}" (${instance.provider}) takes no webhooks`,
      );
    }
    return provider.handleWebhook(request);
  }
}
