import { request } from 'node:http';

/**
 * The status code a GET answers with, without reading the body: for streams, which never end.
 * @example await probeStatus('http://127.0.0.1:3000', '/v1/events', key) // 200
 */
export function probeStatus(baseUrl: string, path: string, token: string): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const req = request(
      `${baseUrl}${path}`,
      { agent: false, headers: { authorization: `Bearer ${token}` }, timeout: 10_000 },
      (res) => {
        resolveStatus(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.once('error', reject);
    req.once('timeout', () => req.destroy(new Error(`GET ${path} did not answer`)));
    req.end();
  });
}
