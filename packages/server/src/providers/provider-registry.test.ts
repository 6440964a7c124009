import { randomUUID } from 'node:crypto';
import { ProviderConfigError, ProviderRegistry } from '@switchboard/provider-kit';
import { ManualTimerClock, startWithRecorder } from '@switchboard/testing';
import { describe, expect, it } from 'vitest';
import { createSimulatorFactory } from './simulator/simulator-factory';

function registry(clock = new ManualTimerClock()) {
  return new ProviderRegistry().register(createSimulatorFactory({ stepMs: 500, clock }));
}

describe('ProviderRegistry', () => {
  it('builds a simulator instance serving the configured channels', async () => {
    const provider = await registry().create({
      name: 'sandbox',
      provider: 'simulator',
      channels: ['imessage', 'sms'],
      config: {},
    });
    expect(provider.provider).toBe('simulator');
    expect(provider.instanceName).toBe('sandbox');
    expect(provider.channels).toEqual(['imessage', 'sms']);
    expect(registry().names()).toEqual(['simulator']);
  });

  it('refuses an unknown adapter, no channel, a channel the adapter lacks and a second registration', async () => {
    const base = { name: 'x', channels: ['sms'] as const, config: {} };
    await expect(registry().create({ ...base, provider: 'carrier-pigeon' })).rejects.toThrow(
      /unknown provider "carrier-pigeon" \(known: simulator\)/,
    );
    await expect(
      registry().create({ ...base, provider: 'simulator', channels: [] }),
    ).rejects.toThrow(ProviderConfigError);
    const smsOnly = new ProviderRegistry().register({
      provider: 'twilio-like',
      supportedChannels: ['sms'],
      create: () => {
        throw new Error('not reached');
      },
    });
    await expect(
      smsOnly.create({ ...base, provider: 'twilio-like', channels: ['sms', 'whatsapp'] }),
    ).rejects.toThrow(/cannot serve whatsapp/);
    expect(() => registry().register(createSimulatorFactory())).toThrow(/already registered/);
  });

  it('validates the simulator config, naming the field', async () => {
    await expect(
      registry().create({
        name: 'bad',
        provider: 'simulator',
        channels: ['sms'],
        config: { stepMs: -1 },
      }),
    ).rejects.toThrow(/invalid simulator config at stepMs/);
    await expect(
      registry().create({
        name: 'bad',
        provider: 'simulator',
        channels: ['sms'],
        config: { x: 1 },
      }),
    ).rejects.toThrow(ProviderConfigError);
  });

  it('lets an instance set its own step length over SIMULATOR_STEP_MS', async () => {
    const clock = new ManualTimerClock();
    const provider = await registry(clock).create({
      name: 'fast',
      provider: 'simulator',
      channels: ['sms'],
      config: { stepMs: 100 },
    });
    const { recorder } = await startWithRecorder(provider);
    const messageId = `msg_${randomUUID()}`;
    const { externalId } = await provider.send({
      channel: 'sms',
      from: '+14155550999',
      to: { type: 'address', address: '+14155550110' },
      messageId,
      attempt: 0,
      attemptId: `${messageId}:0:sms`,
      text: 'Hi',
    });
    await clock.advance(100);
    expect(recorder.statusesOf(externalId)).toEqual(['sent']);
    await provider.stop();
  });
});
