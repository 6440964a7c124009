import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCustomerWithKey } from './support/admin-helpers';
import { buildTestApp } from './support/test-app';

describe('API keys at rest', () => {
  it('stores only the SHA-256 hash, never the plaintext', async () => {
    const t = await buildTestApp({ store: 'sqlite' });
    const keys = [];
    for (const name of ['A', 'B', 'C']) keys.push((await createCustomerWithKey(t.app, name)).key);
    const files = [t.databasePath, `${t.databasePath}-wal`].filter((file) => existsSync(file));
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));

    for (const key of keys) {
      const hash = createHash('sha256').update(key).digest('hex');
      expect(bytes.includes(Buffer.from(hash)), 'the hash is stored').toBe(true);
      expect(bytes.includes(Buffer.from(key)), 'the plaintext is not').toBe(false);
      expect(bytes.includes(Buffer.from(key.slice(11))), 'nor its secret part').toBe(false);
    }
  });
});
