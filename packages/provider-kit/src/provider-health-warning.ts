import type { ProviderHealthWarning, ProviderHealthWarningCode } from './provider';

/** The sentence operators read in `/health` for each warning, as the adapters report it. */
const HEALTH_WARNING_MESSAGES: Readonly<Record<ProviderHealthWarningCode, string>> = {
  private_api_disabled: 'Private API disabled',
  private_api_helper_disconnected:
    'Private API helper not connected (typing, reactions, read receipts and FaceTime events unavailable)',
  imessage_account_missing: 'No iMessage account detected',
  icloud_account_missing: 'No iCloud account detected (imessage and FaceTime unavailable)',
  upstream_unreachable: 'The upstream does not answer',
  credentials_rejected: 'The upstream rejected the configured credentials',
  whatsapp_session_disconnected: 'The WhatsApp session is disconnected',
  receiving_addresses_several:
    'Inbound messages arrive for several addresses of the upstream and the instance has no `address`: set it',
};

/**
 * A health warning with its standard sentence.
 * @example healthWarning('private_api_disabled') // { code, message: 'Private API disabled' }
 */
export function healthWarning(code: ProviderHealthWarningCode): ProviderHealthWarning {
  return { code, message: HEALTH_WARNING_MESSAGES[code] };
}
