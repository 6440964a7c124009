import type { MessagingProvider, ProviderCapabilities } from '@switchboard/provider-kit';
import { ProviderRegistry } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { createSimulatorFactory } from '../../src/providers/simulator/simulator-factory';
import { buildChatApp, chatUrl, createGroup, expectFailure, WHATSAPP_GROUP } from './chat-test-app';

/**
 * A registry whose simulator instances declare only some of their capabilities, as an adapter
 * whose upstream cannot do the rest: the gateway must answer for the missing ones itself.
 */
function registryWithout(...absent: (keyof ProviderCapabilities)[]): ProviderRegistry {
  const simulator = createSimulatorFactory({ stepMs: 0 });
  return new ProviderRegistry().register({
    ...simulator,
    create(instance) {
      const provider = simulator.create(instance);
      const capabilities = Object.fromEntries(
        Object.entries(provider.capabilities).filter(
          ([name]) => !absent.includes(name as keyof ProviderCapabilities),
        ),
      );
      return new Proxy(provider, {
        get(target, property) {
          if (property === 'capabilities') return capabilities;
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as MessagingProvider;
    },
  });
}

describe('a capability the instance lacks', () => {
  it('is answered 400 CHANNEL_NOT_SUPPORTED by the gateway, naming the operation and channel', async () => {
    const t = await buildChatApp({ overrides: { providerRegistry: registryWithout('typing') } });
    try {
      const group = await createGroup(t.acme, WHATSAPP_GROUP);
      const response = await t.acme.request('POST', chatUrl(group.chatId, '/typing'), {
        status: 'start',
      });
      const body = expectFailure(response, 400, 'CHANNEL_NOT_SUPPORTED');
      expect(body.error.message).toBe('Typing indicators is not supported on whatsapp');
    } finally {
      await t.close();
    }
  });

  it('answers a group creation 400 CHANNEL_NOT_SUPPORTED when the instance has no groups', async () => {
    const t = await buildChatApp({ overrides: { providerRegistry: registryWithout('groups') } });
    try {
      const response = await t.acme.request('POST', '/v1/chats/groups', WHATSAPP_GROUP);
      const body = expectFailure(response, 400, 'CHANNEL_NOT_SUPPORTED');
      expect(body.error.message).toBe('Group chats is not supported on whatsapp');
    } finally {
      await t.close();
    }
  });
});
