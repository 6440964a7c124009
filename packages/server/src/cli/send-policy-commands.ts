import {
  Channel,
  CustomerNumberParams,
  type EffectiveSendPolicy,
  type NumberSendPolicy,
  SendPolicySettings,
} from '@switchboard/contract';
import type { Command } from 'commander';
import type { SendPolicyLogger } from '../domain/send-policy/send-policy-service';
import { type CliEnvironment, type CommandContext, withStore } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import { resolveInstanceId } from './instance-commands';
import { emit, formatTable } from './output';
import { parseInput } from './parse-input';

/** The `--policy` JSON, parsed as a {@link SendPolicySettings}. */
function settingsOf(policy: string): SendPolicySettings {
  let input: unknown;
  try {
    input = JSON.parse(policy);
  } catch {
    throw new CliRefusalError('--policy must be JSON, e.g. \'{"alreadyWarm":true}\'');
  }
  return parseInput(SendPolicySettings, input);
}

/** Today's policy per channel, one row each. */
function effectiveTable(policy: NumberSendPolicy): string {
  const cap = (value: number | null) => (value === null ? '-' : String(value));
  const row = (e: EffectiveSendPolicy) => [
    e.channel,
    `${e.usage.sends}/${cap(e.todaysCap)}`,
    `${e.usage.coldContacts}/${cap(e.coldContactDailyCap)}`,
    e.alreadyWarm ? 'warm' : `day ${e.dayInUse}${e.warmUpCap === null ? ' (warm)' : ''}`,
    e.restricted ? `until ${e.restricted.until}` : '',
    e.paused ? `since ${e.paused.since}` : '',
  ];
  return formatTable([
    ['CHANNEL', 'SENT TODAY', 'COLD TODAY', 'WARM-UP', 'RESTRICTED', 'PAUSED'],
    ...policy.effective.map(row),
  ]);
}

/**
 * Adds `send-policy show|set|resume` (a number's) and `send-policy show-instance|set-instance`:
 * the policies `/admin/v1/.../send-policy` reads and sets, and the resume of paused sends, on the
 * configured database.
 */
export function addSendPolicyCommands(program: Command, environment: CliEnvironment): void {
  const run = <T>(work: (context: CommandContext) => Promise<T>) => withStore(environment, work);
  const json = (command: Command) => Boolean(command.optsWithGlobals().json);
  const log: SendPolicyLogger = {
    warn: (_details, message) => environment.stderr.write(`${message}\n`),
    info: () => undefined,
  };
  const group = program
    .command('send-policy')
    .description('Daily caps, cold-contact caps, warm-up and paused sends of sender numbers');
  group
    .command('show <customerId> <phoneNumber>')
    .description("A number's send policy and what holds today, with today's counts")
    .action(async (customerId: string, phoneNumber: string, _o: unknown, command: Command) => {
      const params = parseInput(CustomerNumberParams, { id: customerId, phoneNumber });
      const policy = await run((c) =>
        c.services.sendPolicies.ofNumber(params.id, params.phoneNumber),
      );
      emit(environment, json(command), policy, () => effectiveTable(policy));
    });
  group
    .command('set <customerId> <phoneNumber>')
    .description("Replace a number's send policy (fields left out inherit)")
    .requiredOption(
      '--policy <json>',
      'the policy, e.g. \'{"channels":{"whatsapp":{"dailyCap":100}}}\'',
    )
    .action(
      async (
        customerId: string,
        phoneNumber: string,
        options: { policy: string },
        command: Command,
      ) => {
        const params = parseInput(CustomerNumberParams, { id: customerId, phoneNumber });
        const settings = settingsOf(options.policy);
        const policy = await run((c) =>
          c.services.sendPolicies.setForNumber(params.id, params.phoneNumber, settings, log),
        );
        emit(environment, json(command), policy, () => effectiveTable(policy));
      },
    );
  group
    .command('resume <customerId> <phoneNumber>')
    .description("Resume a number's sends the delivery watchdog paused (held messages then leave)")
    .option('--channel <channel>', 'resume this channel only (imessage, sms or whatsapp)')
    .action(
      async (
        customerId: string,
        phoneNumber: string,
        options: { channel?: string },
        command: Command,
      ) => {
        const params = parseInput(CustomerNumberParams, { id: customerId, phoneNumber });
        const channel =
          options.channel === undefined ? undefined : parseInput(Channel, options.channel);
        const policy = await run((c) =>
          c.services.sendPolicies.resume(params.id, params.phoneNumber, channel, log),
        );
        emit(environment, json(command), policy, () => effectiveTable(policy));
      },
    );
  group
    .command('show-instance <idOrName>')
    .description("An instance's send policy (its numbers' default) and the built-in defaults")
    .action(async (idOrName: string, _o: unknown, command: Command) => {
      const policy = await run(async (c) =>
        c.services.sendPolicies.ofInstance(await resolveInstanceId(c, idOrName)),
      );
      emit(environment, json(command), policy, () => JSON.stringify(policy, null, 2));
    });
  group
    .command('set-instance <idOrName>')
    .description("Replace an instance's send policy")
    .requiredOption('--policy <json>', 'the policy, as for `set`')
    .action(async (idOrName: string, options: { policy: string }, command: Command) => {
      const settings = settingsOf(options.policy);
      const policy = await run(async (c) =>
        c.services.sendPolicies.setForInstance(await resolveInstanceId(c, idOrName), settings, log),
      );
      emit(environment, json(command), policy, () => JSON.stringify(policy, null, 2));
    });
}
