import { runCli } from '@switchboard/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Switchboard } from '../../src/index';
import { clientFor } from '../support/customers';
import { type SwitchboardServer, startServer } from '../support/switchboard-server';

const OWNED = '+14155550100';

let server: SwitchboardServer;
let client: Switchboard;

beforeAll(async () => {
  // Pairing gives up after 5 QR codes of 40 steps each: instant steps would end it at once.
  server = await startServer({ numbers: [OWNED], env: { SIMULATOR_STEP_MS: '25' } });
  client = clientFor(server.baseUrl, server.apiKey);
});
afterAll(() => server.close());

describe('switchboard whatsapp pair', () => {
  it('shows the QR code in the terminal and follows the session until it is connected', async () => {
    let output = '';
    let qrShown: () => void = () => undefined;
    const shown = new Promise<void>((resolve) => {
      qrShown = resolve;
    });
    const pairing = runCli(['whatsapp', 'pair', OWNED], {
      env: { SWITCHBOARD_API_KEY: server.apiKey, SWITCHBOARD_BASE_URL: server.baseUrl },
      stdout: {
        write: (text: string) => {
          output += text;
          // A QR code drawn with half-block characters.
          if (/[▀▄█]/.test(output)) qrShown();
        },
      },
      stderr: { write: (text: string) => (output += text) },
    });
    await shown;
    expect(output).toContain(`Scan with WhatsApp on the phone of ${OWNED}`);
    await client.sandbox.whatsappScanQr(OWNED);
    expect(await pairing).toBe(0);
    expect(output).toContain('Connected as 14155550100@s.whatsapp.net.');
    expect((await client.whatsapp.status(OWNED)).status).toBe('connected');
  });

  it('refuses a number the customer does not own, with the server’s reason', async () => {
    let stderr = '';
    const code = await runCli(['whatsapp', 'pair', '+14155550177'], {
      env: { SWITCHBOARD_API_KEY: server.apiKey, SWITCHBOARD_BASE_URL: server.baseUrl },
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(1);
    expect(stderr).toContain('NUMBER_NOT_OWNED');
  });
});
