import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import { ChatPathParams } from '../schemas/chat';
import { commonResponses, envelope, errors } from '../schemas/common';
import { MessagePathParams } from '../schemas/message';
import {
  SandboxAudioKeptRequest,
  SandboxAudioKeptResult,
  SandboxCallPathParams,
  SandboxChatEventRequest,
  SandboxChatEventResult,
  SandboxDropConnectionRequest,
  SandboxEnterPairingCodeRequest,
  SandboxFaceTimeCall,
  SandboxFaceTimeCallRequest,
  SandboxFaceTimeStatusRequest,
  SandboxHealthRequest,
  SandboxHealthResult,
  SandboxInboundMessageRequest,
  SandboxInboundMessageResult,
  SandboxMessageStatusRequest,
  SandboxMessageStatusResult,
  SandboxReactionRequest,
  SandboxReactionResult,
  SandboxResolveLidRequest,
  SandboxResolveLidResult,
  SandboxTypingRequest,
  SandboxTypingResult,
} from '../schemas/sandbox';
import { WhatsAppNumberPathParams, WhatsAppSession } from '../schemas/whatsapp-session';

const metadata = { tag: 'Sandbox' } satisfies RouteMetadata;

// What the actions of a contact on one of the caller's numbers can answer.
const CONTACT_ACTION_ERRORS = errors(
  'VALIDATION_ERROR',
  'INVALID_PHONE_NUMBER',
  'CHANNEL_NOT_SUPPORTED',
  'NOT_FOUND',
);

// What the WhatsApp session actions with a body can answer.
const SESSION_ACTION_ERRORS = errors(
  'VALIDATION_ERROR',
  'INVALID_PHONE_NUMBER',
  'INVALID_STATUS',
  'CHANNEL_NOT_SUPPORTED',
  'NOT_FOUND',
);

const SIMULATED_NUMBERS_ONLY =
  'Only for your numbers served by the simulator: any other number answers 404 `NOT_FOUND`.';
const SIMULATOR_NOTE = `${SIMULATED_NUMBERS_ONLY} The action flows through the same inbound path as a real upstream’s events.`;

/**
 * The sandbox routes (`/v1/sandbox`): make the simulated world act (contacts writing, reacting,
 * typing, calling; phones pairing WhatsApp) so an integration can be exercised end to end.
 */
export const sandboxContract = c.router(
  {
    inboundMessage: {
      method: 'POST',
      path: '/inbound-messages',
      summary: 'Simulate an inbound message',
      description: `A contact sends a message (text, attachments as base64 or URL, or a verification code) to one of your numbers on any channel. It is stored and emitted as \`message.inbound\`, or suppressed as a verification code. ${SIMULATOR_NOTE}`,
      body: SandboxInboundMessageRequest,
      responses: {
        200: envelope(SandboxInboundMessageResult),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    reaction: {
      method: 'POST',
      path: '/reactions',
      summary: 'Simulate a reaction from a contact',
      description: `A contact adds or removes a tapback or emoji reaction (\`message.reaction\`); on sms it arrives as the text an iPhone sends. ${SIMULATOR_NOTE}`,
      body: SandboxReactionRequest,
      responses: {
        200: envelope(SandboxReactionResult),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    typing: {
      method: 'POST',
      path: '/typing',
      summary: 'Simulate a typing indicator',
      description: `A contact starts or stops typing (\`typing.indicator\` on whatsapp). ${SIMULATOR_NOTE}`,
      body: SandboxTypingRequest,
      responses: {
        200: envelope(SandboxTypingResult),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    messageStatus: {
      method: 'POST',
      path: '/messages/:id/status',
      pathParams: MessagePathParams,
      summary: 'Simulate a receipt for a sent message',
      description: `The provider reports a status for one of your sent messages: a read receipt, a delivery, or a late failure (pending simulated steps it overtakes are dropped). \`read\` on sms answers \`CHANNEL_NOT_SUPPORTED\`. ${SIMULATOR_NOTE}`,
      body: SandboxMessageStatusRequest,
      responses: {
        200: envelope(SandboxMessageStatusResult),
        ...errors('VALIDATION_ERROR', 'CHANNEL_NOT_SUPPORTED', 'MISSING_EXTERNAL_ID', 'NOT_FOUND'),
      },
      metadata,
    },
    audioKept: {
      method: 'POST',
      path: '/audio-kept',
      summary: 'Simulate a kept voice note',
      description: `A contact keeps a voice note you sent (\`message.audio_kept\`, imessage only). ${SIMULATOR_NOTE}`,
      body: SandboxAudioKeptRequest,
      responses: {
        200: envelope(SandboxAudioKeptResult),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    chatEvent: {
      method: 'POST',
      path: '/chats/:chatId/events',
      pathParams: ChatPathParams,
      summary: 'Simulate a group change by a contact',
      description: `A contact adds or removes a member, renames the group or changes its photo (\`chat.participant.added\`, \`chat.participant.left\`, \`chat.title.changed\`, \`chat.photo.changed\`). The change is applied to the chat too. \`{chatId}\` is one of your group chats (provider id or \`conversationId\`). Only for chats served by the simulator.`,
      body: SandboxChatEventRequest,
      responses: {
        200: envelope(SandboxChatEventResult),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'CONVERSATION_NOT_FOUND'),
      },
      metadata,
    },
    faceTimeCall: {
      method: 'POST',
      path: '/facetime/calls',
      summary: 'Simulate an incoming FaceTime call',
      description: `A contact calls one of your numbers on FaceTime (\`facetime.incoming\`, a flat body). ${SIMULATOR_NOTE}`,
      body: SandboxFaceTimeCallRequest,
      responses: {
        200: envelope(SandboxFaceTimeCall),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    faceTimeStatus: {
      method: 'POST',
      path: '/facetime/calls/:callUuid/status',
      pathParams: SandboxCallPathParams,
      summary: 'Simulate a FaceTime call status change',
      description:
        'A simulated call changes state (`facetime.status_changed`, a flat body) until a final state. An unknown call answers 404 `NOT_FOUND`; a call that already ended answers 400 `INVALID_STATUS`.',
      body: SandboxFaceTimeStatusRequest,
      responses: {
        200: envelope(SandboxFaceTimeCall),
        ...errors('VALIDATION_ERROR', 'INVALID_STATUS', 'NOT_FOUND'),
      },
      metadata,
    },
    whatsappScanQr: {
      method: 'POST',
      path: '/whatsapp/numbers/:phoneNumber/scan',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Simulate a WhatsApp QR scan',
      description: `The phone scans the pending QR code: the session moves to \`connecting\`, then \`connected\` one simulator step later. Without a pending QR code it answers 400 \`INVALID_STATUS\`. ${SIMULATOR_NOTE}`,
      body: c.noBody(),
      responses: {
        200: envelope(WhatsAppSession),
        ...errors('INVALID_PHONE_NUMBER', 'INVALID_STATUS', 'CHANNEL_NOT_SUPPORTED', 'NOT_FOUND'),
      },
      metadata,
    },
    whatsappEnterPairingCode: {
      method: 'POST',
      path: '/whatsapp/numbers/:phoneNumber/pairing-code',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Simulate a WhatsApp pairing-code entry',
      description: `The phone enters the pairing code the number was given: \`connecting\`, then \`connected\`. A wrong code answers 400 \`VALIDATION_ERROR\`; no pending code, 400 \`INVALID_STATUS\`. ${SIMULATOR_NOTE}`,
      body: SandboxEnterPairingCodeRequest,
      responses: {
        200: envelope(WhatsAppSession),
        ...SESSION_ACTION_ERRORS,
      },
      metadata,
    },
    whatsappDropConnection: {
      method: 'POST',
      path: '/whatsapp/numbers/:phoneNumber/drop',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Simulate a dropped WhatsApp connection',
      description: `The live session drops: \`disconnected\` with the reason (\`logged_out\` also wipes the credentials). Without a live session it answers 400 \`INVALID_STATUS\`. ${SIMULATOR_NOTE}`,
      body: SandboxDropConnectionRequest.optional(),
      responses: {
        200: envelope(WhatsAppSession),
        ...SESSION_ACTION_ERRORS,
      },
      metadata,
    },
    whatsappResolveLid: {
      method: 'POST',
      path: '/whatsapp/numbers/:phoneNumber/lid-resolutions',
      pathParams: WhatsAppNumberPathParams,
      summary: 'Simulate an @lid member resolving to a phone',
      description: `The number's WhatsApp session learns the phone number of an \`<id>@lid\` group member: in your chats the member's \`handle\` becomes the phone JID and \`isPhoneResolved\` turns true. ${SIMULATOR_NOTE}`,
      body: SandboxResolveLidRequest,
      responses: {
        200: envelope(SandboxResolveLidResult),
        ...CONTACT_ACTION_ERRORS,
      },
      metadata,
    },
    setInstanceHealth: {
      method: 'POST',
      path: '/numbers/:phoneNumber/health',
      // The owned-number parameter of the WhatsApp routes: E.164, the leading + optional.
      pathParams: WhatsAppNumberPathParams,
      summary: 'Simulate a number’s health',
      description: `Your number shows this health in \`GET /v1/numbers\` from now on (kept across restarts), as it would when its instance degrades. It changes only what you see: the shared simulator instance, other customers’ numbers and the server’s \`GET /health\` are untouched. \`healthy\` removes the override. ${SIMULATED_NUMBERS_ONLY}`,
      body: SandboxHealthRequest,
      responses: {
        200: envelope(SandboxHealthResult),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata,
    },
  },
  { pathPrefix: '/v1/sandbox', commonResponses, strictStatusCodes: true },
);
