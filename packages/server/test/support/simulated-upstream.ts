import type { Instance } from '@switchboard/contract';
import type { LightMyRequestResponse } from 'fastify';
import {
  SIMULATOR_SIGNATURE_HEADER,
  signSimulatorCall,
} from '../../src/providers/simulator/simulator-ingress';
import { adminHeaders, createCustomerWithNumber } from './admin-helpers';
import { expectSuccess } from './envelope-assertions';
import { buildSimulatorTestApp } from './simulator-app';
import type { TestApp, TestAppOptions } from './test-app';

/** The key the simulated upstream signs its calls with. */
export const UPSTREAM_SECRET = 'ingress-secret-0123456789';
/** The customer's number on the upstream's instance. */
export const UPSTREAM_NUMBER = '+14155550100';

/** An app with a simulator instance that takes signed upstream calls, and a customer on it. */
export interface UpstreamApp extends TestApp {
  /** The instance (with its `ingressUrl`). */
  instance: Instance;
  /** The customer whose number the instance serves. */
  customerId: string;
  /** The customer's API key. */
  key: string;
  /** The path of the instance's ingress URL. */
  path: string;
  /** Posts `body` as JSON to the ingress, signed with `secret` (the instance's by default). */
  call(body: object, secret?: string): Promise<LightMyRequestResponse>;
}

/**
 * Builds an app whose simulator instance (extra `config` merged in) signs ingress calls with
 * {@link UPSTREAM_SECRET}, and a customer with {@link UPSTREAM_NUMBER} on it.
 */
export async function buildUpstreamApp(
  options: TestAppOptions & { config?: Record<string, unknown> } = {},
): Promise<UpstreamApp> {
  const { config = {}, ...appOptions } = options;
  const t = await buildSimulatorTestApp(appOptions);
  const instance = expectSuccess<Instance>(
    await t.app.inject({
      method: 'POST',
      url: '/admin/v1/instances',
      headers: adminHeaders,
      payload: {
        name: 'upstream',
        provider: 'simulator',
        config: { ingressSecret: UPSTREAM_SECRET, ...config },
      },
    }),
    201,
  );
  const { customerId, key } = await createCustomerWithNumber(
    t.app,
    'Acme',
    UPSTREAM_NUMBER,
    instance.id,
  );
  const path = new URL(instance.ingressUrl).pathname;
  const call = (body: object, secret = UPSTREAM_SECRET) => {
    const payload = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: path,
      headers: {
        'content-type': 'application/json',
        [SIMULATOR_SIGNATURE_HEADER]: signSimulatorCall(secret, payload),
      },
      payload,
    });
  };
  return { ...t, instance, customerId, key, path, call };
}
