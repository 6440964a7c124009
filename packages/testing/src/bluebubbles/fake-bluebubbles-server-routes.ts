import { ok } from './fake-bluebubbles-http';
import type { FakeRoute, FakeRouteHost } from './fake-bluebubbles-routes';

/**
 * Registers `GET /ping` and `GET /server/info`.
 *
 * The server resource of the fake BlueBubbles: ping and `/server/info` (upstream's serverRouter).
 */
export function registerServerRoutes(route: FakeRoute, host: FakeRouteHost): void {
  route('GET', '/ping', async () => ok('Ping received!', 'pong'));
  route('GET', '/server/info', async () =>
    ok('Successfully fetched metadata', {
      computer_id: 'FAKE-MAC',
      os_version: host.switches.macOsVersion,
      server_version: host.switches.serverVersion,
      private_api: host.switches.privateApi,
      proxy_service: 'lan-url',
      helper_connected: host.switches.privateApi && host.switches.helperConnected,
      detected_icloud: host.switches.detectedICloud ?? '',
      detected_imessage: host.switches.detectedIMessage ?? '',
      macos_time_sync: null,
      local_ipv4s: ['127.0.0.1'],
      local_ipv6s: [],
    }),
  );
}
