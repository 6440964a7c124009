import { ProviderConfigError } from '@switchboard/provider-kit';
import { describe, expect, it } from 'vitest';
import { BAILEYS_PACKAGE, createBaileysFactory, loadBaileysAdapter } from './baileys-factory';

describe('the baileys factory', () => {
  it('loads the adapter package only when an instance is built, and builds a WhatsApp instance', async () => {
    const provider = await createBaileysFactory().create({
      name: 'wa',
      provider: 'baileys',
      channels: ['whatsapp'],
      config: { markOnlineOnConnect: false },
    });
    expect(provider.provider).toBe('baileys');
    expect(provider.channels).toEqual(['whatsapp']);
    expect(provider.whatsappSessions).toBeDefined();
  });

  it('names the package to install when it is missing', async () => {
    const missing = '@switchboard/provider-baileys-not-installed';
    const error = await loadBaileysAdapter(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect((error as Error).message).toContain(`install ${missing} beside the server`);
    expect((error as Error).message).toContain('GPL-3.0');
    const built = await createBaileysFactory({ packageName: missing })
      .create({ name: 'wa', provider: 'baileys', channels: ['whatsapp'], config: {} })
      .catch((e: unknown) => e);
    expect((built as Error).message).toContain(missing);
    expect(BAILEYS_PACKAGE).toBe('@switchboard/provider-baileys');
  });

  it('refuses an invalid config before loading anything, naming the field', async () => {
    const error = await createBaileysFactory()
      .create({
        name: 'wa',
        provider: 'baileys',
        channels: ['whatsapp'],
        config: { version: [2, 'x'] },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect((error as Error).message).toMatch(/invalid baileys config at version/);
  });
});
