import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnvFile } from './env-file';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the .env file', () => {
  it('fills what the environment leaves unset, and the environment wins', () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-env-'));
    writeFileSync(
      join(dir, '.env'),
      [
        '# local settings',
        'PORT=4000',
        'LOG_LEVEL="debug"',
        "PUBLIC_BASE_URL='https://sb.example.com'",
        'export SWITCHBOARD_ADMIN_TOKEN=from-the-file-0123456789',
      ].join('\n'),
    );
    const env: Record<string, string | undefined> = { PORT: '5000' };
    expect(loadEnvFile(env, dir)).toBe(join(dir, '.env'));
    expect(env).toEqual({
      PORT: '5000',
      LOG_LEVEL: 'debug',
      PUBLIC_BASE_URL: 'https://sb.example.com',
      SWITCHBOARD_ADMIN_TOKEN: 'from-the-file-0123456789',
    });
  });

  it('is optional', () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-env-'));
    const env: Record<string, string | undefined> = {};
    expect(loadEnvFile(env, dir)).toBeUndefined();
    expect(env).toEqual({});
  });
});
