import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { commonResponses, envelope, errors } from '../schemas/common';
import {
  PairingCode,
  PairingCodeRequest,
  QrCode,
  SignupCodes,
  WhatsAppCheckQuery,
  WhatsAppCheckResult,
  WhatsAppNumberPathParams,
  WhatsAppSession,
  WhatsAppSessionDeleted,
  WhatsAppSessionState,
} from '../schemas/whatsapp-session';

const metadata = { tag: 'WhatsApp' } satisfies RouteMetadata;

const NUMBER_NOTE =
  '`{phoneNumber}` is E.164 with or without the leading `+`; a number not linked to the customer answers 403 `NUMBER_NOT_OWNED`; a number served by an instance without WhatsApp answers 400 `CHANNEL_NOT_SUPPORTED` where a session is needed.';

/** The WhatsApp session routes (`/v1/whatsapp`): pairing, state and lookups per owned number. */
export const whatsappContract = c.router(
  {
    list: {
      method: 'GET',
      path: '',
      summary: 'List WhatsApp sessions',
      description:
        'Every number the customer owns, each with its WhatsApp session (`not_enabled` when none was started).',
      responses: { 200: envelope(z.array(WhatsAppSession)) },
      metadata,
    },
    enable: {
      method: 'POST',
      path: '/numbers/:phoneNumber/enable',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Enable WhatsApp on a number',
      description: `Creates the session and starts pairing: the session moves to \`connecting\`, then \`qr_pending\` once a QR code is available (or straight to \`connected\` when stored credentials are still valid). Idempotent: a session already enabled is returned as it is. ${NUMBER_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(WhatsAppSession),
        ...errors(
          'INVALID_PHONE_NUMBER',
          'CHANNEL_NOT_SUPPORTED',
          'FORBIDDEN',
          'NUMBER_NOT_OWNED',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    status: {
      method: 'GET',
      path: '/numbers/:phoneNumber/status',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Get the session state',
      description: `The session's state, JID and connection times. ${NUMBER_NOTE}`,
      responses: {
        200: envelope(WhatsAppSessionState),
        ...errors('INVALID_PHONE_NUMBER', 'FORBIDDEN', 'NUMBER_NOT_OWNED'),
      },
      metadata,
    },
    qr: {
      method: 'GET',
      path: '/numbers/:phoneNumber/qr',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Get the pairing QR code',
      description: `The raw QR payload while the session is \`qr_pending\` (it changes as the provider refreshes it; \`whatsapp.status\` on the event stream carries each new one). In any other state it answers 400 \`INVALID_STATUS\`. ${NUMBER_NOTE}`,
      responses: {
        200: envelope(QrCode),
        ...errors('INVALID_PHONE_NUMBER', 'INVALID_STATUS', 'FORBIDDEN', 'NUMBER_NOT_OWNED'),
      },
      metadata,
    },
    pairingCode: {
      method: 'POST',
      path: '/numbers/:phoneNumber/pairing-code',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Get an 8-character pairing code',
      description: `The alternative to the QR code: an 8-character code to enter on the phone. Pairs the owned number unless the body names another \`phoneNumber\`. Starts the session when it is not enabled; a \`connected\` session answers 400 \`INVALID_STATUS\`. ${NUMBER_NOTE}`,
      body: PairingCodeRequest.optional(),
      responses: {
        200: envelope(PairingCode),
        ...errors(
          'VALIDATION_ERROR',
          'INVALID_PHONE_NUMBER',
          'INVALID_STATUS',
          'CHANNEL_NOT_SUPPORTED',
          'FORBIDDEN',
          'NUMBER_NOT_OWNED',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    disconnect: {
      method: 'POST',
      path: '/numbers/:phoneNumber/disconnect',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Disconnect the session',
      description: `Drops the live session and keeps its credentials, so enabling again reconnects without a new QR. Idempotent. ${NUMBER_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(WhatsAppSession),
        ...errors('INVALID_PHONE_NUMBER', 'CHANNEL_NOT_SUPPORTED', 'FORBIDDEN', 'NUMBER_NOT_OWNED'),
      },
      metadata,
    },
    delete: {
      method: 'DELETE',
      path: '/numbers/:phoneNumber',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Delete the session',
      description: `Removes the session and its credentials; the next pairing needs a fresh QR code or pairing code. Idempotent. ${NUMBER_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(WhatsAppSessionDeleted),
        ...errors('INVALID_PHONE_NUMBER', 'CHANNEL_NOT_SUPPORTED', 'FORBIDDEN', 'NUMBER_NOT_OWNED'),
      },
      metadata,
    },
    check: {
      method: 'GET',
      path: '/numbers/:phoneNumber/check',
      pathParams: WhatsAppNumberPathParams,
      query: WhatsAppCheckQuery,
      summary: 'Check whether a recipient is on WhatsApp',
      description: `Asks WhatsApp, through this number's session, whether \`phone\` has an account. Needs a \`connected\` session (otherwise 400 \`INVALID_STATUS\`). ${NUMBER_NOTE}`,
      responses: {
        200: envelope(WhatsAppCheckResult),
        ...errors(
          'VALIDATION_ERROR',
          'INVALID_PHONE_NUMBER',
          'INVALID_STATUS',
          'CHANNEL_NOT_SUPPORTED',
          'FORBIDDEN',
          'NUMBER_NOT_OWNED',
          'PROVIDER_TIMEOUT',
        ),
      },
      metadata,
    },
    signupCodes: {
      method: 'GET',
      path: '/numbers/:phoneNumber/signup-codes',
      pathParams: WhatsAppNumberPathParams,
      summary: 'List recent verification codes',
      description: `Verification codes (one-time passcodes, 2FA, password resets) this number received in the last 15 minutes, newest first. These messages are suppressed everywhere else. ${NUMBER_NOTE}`,
      responses: {
        200: envelope(SignupCodes),
        ...errors('INVALID_PHONE_NUMBER', 'FORBIDDEN', 'NUMBER_NOT_OWNED'),
      },
      metadata,
    },
  },
  { pathPrefix: '/v1/whatsapp', commonResponses, strictStatusCodes: true },
);
