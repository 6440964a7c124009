import { newCorrelationId } from '../../ids';
import type { InboundHandler } from '../../providers/provider-hub';
import { type InboundDeps, receiverOf } from './inbound-deps';

/**
 * Emits `facetime.incoming` (a flat body) when a contact calls one of the customer's addresses,
 * and remembers the call so its status changes reach the same customer.
 */
export function faceTimeIncomingHandler(deps: InboundDeps): InboundHandler<'facetime.incoming'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    const at = new Date(deps.clock.now());
    await deps.store.transaction(async (tx) => {
      const known = await tx.faceTimeCalls.find(number.customerId, event.callUuid);
      // The same ring again: nothing new. (Redeliveries with an upstream id stop before this.)
      if (known?.status === 'incoming') return;
      // A call known already had a later status handled first (BlueBubbles posts its webhooks
      // concurrently, so they can arrive in any order): the ring is still told, and the call
      // keeps its later status.
      if (!known) {
        await tx.faceTimeCalls.save({
          customerId: number.customerId,
          callUuid: event.callUuid,
          instanceId: context.instanceId,
          receivingAddress: event.to,
          otherParty: event.caller,
          isVideo: event.isVideo,
          status: 'incoming',
          createdAt: at,
          updatedAt: at,
        });
      }
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'facetime.incoming',
        correlationId: newCorrelationId(),
        callUuid: event.callUuid,
        to: event.to,
        isAudio: !event.isVideo,
        isVideo: event.isVideo,
        caller: event.caller,
        timestamp: event.occurredAt.getTime(),
      });
    });
  };
}

/** Emits `facetime.status_changed` (a flat body) when a call changes state. */
export function faceTimeStatusHandler(deps: InboundDeps): InboundHandler<'facetime.status'> {
  return async (event, context) => {
    const number = await receiverOf(deps, context, event, event.to);
    if (!number) return;
    const at = new Date(deps.clock.now());
    await deps.store.transaction(async (tx) => {
      const known = await tx.faceTimeCalls.find(number.customerId, event.callUuid);
      // A redelivered status changes nothing and emits nothing.
      if (known?.status === event.status) return;
      await tx.faceTimeCalls.save({
        customerId: number.customerId,
        callUuid: event.callUuid,
        instanceId: context.instanceId,
        receivingAddress: event.to,
        otherParty: event.address,
        isVideo: event.isVideo,
        status: event.status,
        createdAt: known?.createdAt ?? at,
        updatedAt: at,
      });
      await deps.events.record(tx, {
        customerId: number.customerId,
        type: 'facetime.status_changed',
        correlationId: newCorrelationId(),
        callUuid: event.callUuid,
        to: event.to,
        isAudio: !event.isVideo,
        isVideo: event.isVideo,
        address: event.address,
        status: event.status,
        isOutgoing: event.isOutgoing,
      });
    });
  };
}
