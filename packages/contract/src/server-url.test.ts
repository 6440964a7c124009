import { describe, expect, it } from 'vitest';
import { publicBaseUrlOf, resolveServerUrl } from './server-url';

describe('resolveServerUrl: where a tool finds the server', () => {
  it('takes the flag, then SWITCHBOARD_URL, then SWITCHBOARD_BASE_URL, then PUBLIC_BASE_URL, then HOST:PORT', () => {
    const env = {
      SWITCHBOARD_URL: 'http://switchboard.internal:8080/',
      SWITCHBOARD_BASE_URL: 'http://old-name:1',
      PUBLIC_BASE_URL: 'https://gateway.example.com',
      HOST: '10.0.0.5',
      PORT: '3100',
    };
    expect(resolveServerUrl(env, 'http://flag:9/')).toBe('http://flag:9');
    expect(resolveServerUrl(env)).toBe('http://switchboard.internal:8080');
    expect(resolveServerUrl({ ...env, SWITCHBOARD_URL: undefined })).toBe('http://old-name:1');
    expect(resolveServerUrl({ ...env, SWITCHBOARD_URL: '', SWITCHBOARD_BASE_URL: ' ' })).toBe(
      'https://gateway.example.com',
    );
    expect(resolveServerUrl({ HOST: '10.0.0.5', PORT: '3100' })).toBe('http://10.0.0.5:3100');
  });

  it('names a wildcard host as loopback, brackets IPv6, and defaults to 127.0.0.1:3000', () => {
    expect(resolveServerUrl({})).toBe('http://127.0.0.1:3000');
    expect(resolveServerUrl({ PORT: '3917' })).toBe('http://127.0.0.1:3917');
    expect(resolveServerUrl({ HOST: '0.0.0.0', PORT: '8080' })).toBe('http://127.0.0.1:8080');
    expect(resolveServerUrl({ HOST: '::' })).toBe('http://127.0.0.1:3000');
    expect(resolveServerUrl({ HOST: '::1', PORT: 4000 })).toBe('http://[::1]:4000');
    expect(resolveServerUrl({ HOST: 'localhost' })).toBe('http://localhost:3000');
  });

  it("gives the server its own address without the client's settings", () => {
    expect(publicBaseUrlOf({ SWITCHBOARD_URL: 'http://elsewhere', PORT: 3917 })).toBe(
      'http://127.0.0.1:3917',
    );
    expect(publicBaseUrlOf({ PUBLIC_BASE_URL: 'https://gateway.example.com//' })).toBe(
      'https://gateway.example.com',
    );
  });
});
