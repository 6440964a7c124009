import {
  capabilityOn,
  PROVIDER_CAPABILITY_NAMES,
  requireCapability,
} from '@switchboard/provider-kit';
import { expect, it } from 'vitest';
import {
  type ConformanceRun,
  expectProviderError,
  sendRequest,
  sentRef,
} from './provider-conformance-run';

/** Edits where the channel supports them (and the upstream's edit failures), CHANNEL_NOT_SUPPORTED elsewhere. */
export function describeEdits(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  if (options.supports.edit) {
    it('edits a delivered message', async () => {
      expect(capabilityOn(run.provider, 'edits', channel)).toBeDefined();
      const { externalId } = await run.provider.send(sendRequest(options, recipients.deliverable));
      await run.recorder.waitForStatus(externalId, 'sent', timeoutMs);
      await expect(
        run.operations().edit({
          channel,
          from: options.from,
          message: sentRef(externalId, recipients.deliverable),
          text: 'Edited text',
        }),
      ).resolves.toBeUndefined();
    });

    for (const failure of recipients.editFailures ?? []) {
      it(`answers ${failure.code} when the upstream cannot edit`, async () => {
        const { externalId } = await run.provider.send(sendRequest(options, failure.address));
        await run.recorder.waitForStatus(externalId, 'sent', timeoutMs);
        await expectProviderError(
          run.operations().edit({
            channel,
            from: options.from,
            message: sentRef(externalId, failure.address),
            text: 'Edited text',
          }),
          failure.code,
        );
      });
    }
  } else {
    it('refuses edits with CHANNEL_NOT_SUPPORTED', async () => {
      await expectProviderError(
        run.operations().edit({
          channel,
          from: options.from,
          message: sentRef('unknown', recipients.deliverable),
          text: 'Edited text',
        }),
        'CHANNEL_NOT_SUPPORTED',
      );
    });
  }
}

/** Unsend where the channel supports it, CHANNEL_NOT_SUPPORTED elsewhere. */
export function describeUnsend(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  if (options.supports.unsend) {
    it('unsends a sent message', async () => {
      expect(capabilityOn(run.provider, 'unsend', channel)).toBeDefined();
      const { externalId } = await run.provider.send(sendRequest(options, recipients.deliverable));
      await run.recorder.waitForStatus(externalId, 'sent', timeoutMs);
      await expect(
        run.operations().unsend({
          channel,
          from: options.from,
          message: sentRef(externalId, recipients.deliverable),
        }),
      ).resolves.toBeUndefined();
    });
  } else {
    it('refuses unsend with CHANNEL_NOT_SUPPORTED', async () => {
      await expectProviderError(
        run.operations().unsend({
          channel,
          from: options.from,
          message: sentRef('unknown', recipients.deliverable),
        }),
        'CHANNEL_NOT_SUPPORTED',
      );
    });
  }
}

/** Reactions where the channel supports them, CHANNEL_NOT_SUPPORTED elsewhere. */
export function describeReactions(run: ConformanceRun): void {
  const { options, channel, recipients, timeoutMs } = run;
  if (options.supports.react) {
    it('adds and removes tapback and emoji reactions', async () => {
      expect(capabilityOn(run.provider, 'reactions', channel)).toBeDefined();
      const { externalId } = await run.provider.send(sendRequest(options, recipients.deliverable));
      await run.recorder.waitForStatus(externalId, 'sent', timeoutMs);
      const message = sentRef(externalId, recipients.deliverable);
      const base = { channel, from: options.from, message };
      await expect(
        run.operations().react({ ...base, reaction: { type: 'love' }, remove: false }),
      ).resolves.toBeUndefined();
      await expect(
        run.operations().react({ ...base, reaction: { type: 'love' }, remove: true }),
      ).resolves.toBeUndefined();
      await expect(
        run
          .operations()
          .react({ ...base, reaction: { type: 'emoji', emoji: '🎉' }, remove: false }),
      ).resolves.toBeUndefined();
    });
  } else {
    it('refuses reactions with CHANNEL_NOT_SUPPORTED', async () => {
      await expectProviderError(
        run.operations().react({
          channel,
          from: options.from,
          message: sentRef('unknown', recipients.deliverable),
          reaction: { type: 'like' },
          remove: false,
        }),
        'CHANNEL_NOT_SUPPORTED',
      );
    });
  }
}

/** Typing indicators where the channel supports them, CHANNEL_NOT_SUPPORTED elsewhere. */
export function describeTyping(run: ConformanceRun): void {
  const { options, channel, recipients } = run;
  if (options.supports.typing) {
    it('starts and stops the typing indicator', async () => {
      expect(capabilityOn(run.provider, 'typing', channel)).toBeDefined();
      const to = { type: 'address', address: recipients.deliverable } as const;
      const base = { channel, from: options.from, to };
      await expect(run.operations().typing({ ...base, status: 'start' })).resolves.toBeUndefined();
      await expect(run.operations().typing({ ...base, status: 'stop' })).resolves.toBeUndefined();
    });
  } else {
    it('refuses typing indicators with CHANNEL_NOT_SUPPORTED', async () => {
      await expectProviderError(
        run.operations().typing({
          channel,
          from: options.from,
          to: { type: 'address', address: recipients.deliverable },
          status: 'start',
        }),
        'CHANNEL_NOT_SUPPORTED',
      );
    });
  }
}

/** Every capability the adapter lacks on the channel is left to the gateway, which answers CHANNEL_NOT_SUPPORTED. */
export function describeCapabilityGate(run: ConformanceRun): void {
  const { channel } = run;
  it('leaves every capability it lacks on the channel to the gateway, which answers CHANNEL_NOT_SUPPORTED', async () => {
    const absent = PROVIDER_CAPABILITY_NAMES.filter(
      (name) => capabilityOn(run.provider, name, channel) === undefined,
    );
    for (const name of absent) {
      expect(() => requireCapability(run.provider, name, channel)).toThrow(
        expect.objectContaining({ code: 'CHANNEL_NOT_SUPPORTED' }),
      );
    }
    for (const name of PROVIDER_CAPABILITY_NAMES.filter((n) => !absent.includes(n))) {
      expect(run.provider.capabilities[name]?.channels).toContain(channel);
    }
  });
}

/** Groups, where the channel supports them: create, look up, rename, send into. */
export function describeGroups(run: ConformanceRun): void {
  const { options, channel, recipients } = run;
  if (options.supports.groups) {
    it('creates a group, knows its members, renames it and sends into it', async () => {
      expect(capabilityOn(run.provider, 'groups', channel)).toBeDefined();
      const chat = await run.operations().createGroup({
        channel,
        from: options.from,
        participants: recipients.groupMembers ?? [recipients.deliverable],
        name: 'Conformance',
        text: 'Welcome',
      });
      expect(chat.isGroup).toBe(true);
      expect(chat.channel).toBe(channel);
      const known = await run.operations().getChat({
        channel,
        from: options.from,
        chatId: chat.chatId,
      });
      expect(known?.participants.length).toBeGreaterThanOrEqual(1);
      await run.operations().renameGroup({
        channel,
        from: options.from,
        chatId: chat.chatId,
        name: 'Renamed',
      });
      expect(
        (await run.operations().getChat({ channel, from: options.from, chatId: chat.chatId }))
          ?.name,
      ).toBe('Renamed');
      const sent = await run.provider.send(
        sendRequest(options, recipients.deliverable, {
          to: { type: 'chat', chatId: chat.chatId },
        }),
      );
      expect(sent.externalId.length).toBeGreaterThan(0);
    });
  }
}
