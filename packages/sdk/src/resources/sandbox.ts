import type { APIPromise } from '../core/api-promise';
import type { RequestOptions } from '../core/request';
import { APIResource } from '../core/resource';
import type { Operations } from '../generated/api-types';
import { routeTable } from '../generated/route-table';
import { callRoute } from '../internal/route-call';
import type { RouteBody, RouteData } from '../internal/route-types';

const routes = routeTable.sandbox;

/** The body of {@link Sandbox.inboundMessage}. */
export type SandboxInboundMessageParams = RouteBody<Operations['sandbox']['inboundMessage']>;
/** The message a simulated contact sent, as the gateway stored it. */
export type SandboxInboundMessageResponse = RouteData<Operations['sandbox']['inboundMessage']>;
/** The body of {@link Sandbox.reaction}. */
export type SandboxReactionParams = RouteBody<Operations['sandbox']['reaction']>;
/** What a simulated reaction created. */
export type SandboxReactionResponse = RouteData<Operations['sandbox']['reaction']>;
/** The body of {@link Sandbox.typing}. */
export type SandboxTypingParams = RouteBody<Operations['sandbox']['typing']>;
/** What a simulated typing indicator did. */
export type SandboxTypingResponse = RouteData<Operations['sandbox']['typing']>;
/** The body of {@link Sandbox.messageStatus}. */
export type SandboxMessageStatusParams = RouteBody<Operations['sandbox']['messageStatus']>;
/** What a simulated status report did. */
export type SandboxMessageStatusResponse = RouteData<Operations['sandbox']['messageStatus']>;
/** The body of {@link Sandbox.audioKept}. */
export type SandboxAudioKeptParams = RouteBody<Operations['sandbox']['audioKept']>;
/** What a simulated kept voice note created. */
export type SandboxAudioKeptResponse = RouteData<Operations['sandbox']['audioKept']>;
/** The body of {@link Sandbox.chatEvent}. */
export type SandboxChatEventParams = RouteBody<Operations['sandbox']['chatEvent']>;
/** What a simulated group change created. */
export type SandboxChatEventResponse = RouteData<Operations['sandbox']['chatEvent']>;
/** The body of {@link Sandbox.faceTimeCall}. */
export type SandboxFaceTimeCallParams = RouteBody<Operations['sandbox']['faceTimeCall']>;
/** The body of {@link Sandbox.faceTimeStatus}. */
export type SandboxFaceTimeStatusParams = RouteBody<Operations['sandbox']['faceTimeStatus']>;
/** A simulated FaceTime call and its state. */
export type SandboxFaceTimeCallResponse = RouteData<Operations['sandbox']['faceTimeCall']>;
/** The body of {@link Sandbox.whatsappEnterPairingCode}. */
export type SandboxEnterPairingCodeParams = RouteBody<
  Operations['sandbox']['whatsappEnterPairingCode']
>;
/** The optional body of {@link Sandbox.whatsappDropConnection}. */
export type SandboxDropConnectionParams = RouteBody<
  Operations['sandbox']['whatsappDropConnection']
>;
/** A number's WhatsApp session after a simulated phone action. */
export type SandboxWhatsAppSessionResponse = RouteData<Operations['sandbox']['whatsappScanQr']>;
/** The body of {@link Sandbox.whatsappResolveLid}. */
export type SandboxResolveLidParams = RouteBody<Operations['sandbox']['whatsappResolveLid']>;
/** What a simulated `@lid` resolution changed. */
export type SandboxResolveLidResponse = RouteData<Operations['sandbox']['whatsappResolveLid']>;
/** The body of {@link Sandbox.setInstanceHealth}. */
export type SandboxInstanceHealthParams = RouteBody<Operations['sandbox']['setInstanceHealth']>;
/** The health the simulator instance now reports. */
export type SandboxInstanceHealthResponse = RouteData<Operations['sandbox']['setInstanceHealth']>;

/**
 * Test helpers that make the simulated world act: contacts writing, reacting, typing and calling,
 * phones pairing WhatsApp, instances turning unhealthy. Like Stripe's test helpers they only work
 * in test mode: every call names one of your numbers (or chats) served by the simulator, and any
 * other number answers 404 `NOT_FOUND` (`NotFoundError`), so nothing here reaches a real upstream.
 * Each action goes through the same inbound path as a real upstream's events and resolves once the
 * gateway recorded it.
 * @example
 * await client.sandbox.inboundMessage({ channel: 'imessage', from: '+14155550123', to: '+14155550100', text: 'Hi' });
 */
export class Sandbox extends APIResource {
  /**
   * A contact sends a message to one of your simulated numbers (text, attachments as base64 or an
   * https URL, or a verification code); it arrives as `message.inbound`, or is suppressed as a
   * verification code. Simulator numbers only.
   */
  inboundMessage(
    params: SandboxInboundMessageParams,
    options?: RequestOptions,
  ): APIPromise<SandboxInboundMessageResponse> {
    return callRoute(this._transport, routes.inboundMessage, { body: params }, options);
  }

  /**
   * A contact adds or removes a tapback or emoji reaction (`message.reaction`; on sms it arrives
   * as the text an iPhone sends). Simulator numbers only.
   */
  reaction(
    params: SandboxReactionParams,
    options?: RequestOptions,
  ): APIPromise<SandboxReactionResponse> {
    return callRoute(this._transport, routes.reaction, { body: params }, options);
  }

  /** A contact starts or stops typing (`typing.indicator` on whatsapp). Simulator numbers only. */
  typing(params: SandboxTypingParams, options?: RequestOptions): APIPromise<SandboxTypingResponse> {
    return callRoute(this._transport, routes.typing, { body: params }, options);
  }

  /**
   * The provider reports a status for one of your sent messages: a read receipt, a delivery or a
   * late failure (`read` on sms answers `CHANNEL_NOT_SUPPORTED`). Simulator numbers only.
   */
  messageStatus(
    messageId: string,
    params: SandboxMessageStatusParams,
    options?: RequestOptions,
  ): APIPromise<SandboxMessageStatusResponse> {
    return callRoute(
      this._transport,
      routes.messageStatus,
      { params: { id: messageId }, body: params },
      options,
    );
  }

  /** A contact keeps a voice note you sent (`message.audio_kept`, imessage). Simulator numbers only. */
  audioKept(
    params: SandboxAudioKeptParams,
    options?: RequestOptions,
  ): APIPromise<SandboxAudioKeptResponse> {
    return callRoute(this._transport, routes.audioKept, { body: params }, options);
  }

  /**
   * A contact adds or removes a member, renames a group or changes its photo; the change is
   * applied to the chat and emitted (`chat.participant.added`, …). `chatId` is one of your groups
   * (provider id or `conversationId`). Simulator chats only.
   */
  chatEvent(
    chatId: string,
    params: SandboxChatEventParams,
    options?: RequestOptions,
  ): APIPromise<SandboxChatEventResponse> {
    return callRoute(
      this._transport,
      routes.chatEvent,
      { params: { chatId }, body: params },
      options,
    );
  }

  /** A contact calls one of your numbers on FaceTime (`facetime.incoming`). Simulator numbers only. */
  faceTimeCall(
    params: SandboxFaceTimeCallParams,
    options?: RequestOptions,
  ): APIPromise<SandboxFaceTimeCallResponse> {
    return callRoute(this._transport, routes.faceTimeCall, { body: params }, options);
  }

  /**
   * A simulated FaceTime call changes state (`facetime.status_changed`) until a final state; a
   * call that already ended answers `INVALID_STATUS`. Simulated calls only.
   */
  faceTimeStatus(
    callUuid: string,
    params: SandboxFaceTimeStatusParams,
    options?: RequestOptions,
  ): APIPromise<SandboxFaceTimeCallResponse> {
    return callRoute(
      this._transport,
      routes.faceTimeStatus,
      { params: { callUuid }, body: params },
      options,
    );
  }

  /**
   * The phone scans the pending QR code: the session moves to `connecting`, then `connected` one
   * simulator step later. `phoneNumber` is one of your simulated numbers, `+` optional.
   */
  whatsappScanQr(
    phoneNumber: string,
    options?: RequestOptions,
  ): APIPromise<SandboxWhatsAppSessionResponse> {
    return callRoute(this._transport, routes.whatsappScanQr, { params: { phoneNumber } }, options);
  }

  /**
   * The phone enters the pairing code from `client.whatsapp.pairingCode()` (dashes and case do
   * not matter): `connecting`, then `connected`. Simulator numbers only.
   */
  whatsappEnterPairingCode(
    phoneNumber: string,
    params: SandboxEnterPairingCodeParams,
    options?: RequestOptions,
  ): APIPromise<SandboxWhatsAppSessionResponse> {
    return callRoute(
      this._transport,
      routes.whatsappEnterPairingCode,
      { params: { phoneNumber }, body: params },
      options,
    );
  }

  /**
   * The live WhatsApp connection drops: `disconnected` with the reason (`connection_lost` by
   * default; `logged_out` also wipes the credentials). Simulator numbers only.
   */
  whatsappDropConnection(
    phoneNumber: string,
    params?: SandboxDropConnectionParams,
    options?: RequestOptions,
  ): APIPromise<SandboxWhatsAppSessionResponse> {
    return callRoute(
      this._transport,
      routes.whatsappDropConnection,
      { params: { phoneNumber }, body: params },
      options,
    );
  }

  /**
   * The number's WhatsApp session learns the phone of an `<id>@lid` group member: in your chats
   * its `handle` becomes the phone JID and `isPhoneResolved` turns true. Simulator numbers only.
   */
  whatsappResolveLid(
    phoneNumber: string,
    params: SandboxResolveLidParams,
    options?: RequestOptions,
  ): APIPromise<SandboxResolveLidResponse> {
    return callRoute(
      this._transport,
      routes.whatsappResolveLid,
      { params: { phoneNumber }, body: params },
      options,
    );
  }

  /**
   * Your number shows this health in `client.numbers.list()` from now on (`healthy` removes the
   * override); only your view changes, never the shared instance or `client.health()`. Simulator
   * numbers only.
   */
  setInstanceHealth(
    phoneNumber: string,
    params: SandboxInstanceHealthParams,
    options?: RequestOptions,
  ): APIPromise<SandboxInstanceHealthResponse> {
    return callRoute(
      this._transport,
      routes.setInstanceHealth,
      // Setting the same health twice leaves the same state, so a retry after a dropped
      // connection is safe.
      { params: { phoneNumber }, body: params, idempotent: true },
      options,
    );
  }
}
