import { resolveServerUrl } from '@switchboard/contract';
import type { Command } from 'commander';
import { toCustomerView } from '../domain/customers/customer-service';
import { isDomainError } from '../domain/domain-error';
import { toInstanceView } from '../domain/instances/instance-view';
import { toAssignedNumberView } from '../domain/numbers/number-service';
import { runQuickstart } from '../domain/quickstart/quickstart';
import { type CliEnvironment, withStore } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import { emit } from './output';

/** A recipient in the simulator's "iMessage: sent, delivered, read" row (555-0100 to 0109). */
const DEMO_RECIPIENT = '+14155550105';

/** The curl line that sends a first message with the new key. */
function firstMessageCurl(baseUrl: string, apiKey: string): string {
  const body = JSON.stringify({ to: DEMO_RECIPIENT, content: { text: 'Hello from Switchboard!' } });
  return [
    `curl -X POST ${baseUrl}/v1/messages \\`,
    `  -H "Authorization: Bearer ${apiKey}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join('\n');
}

/** Adds `switchboard quickstart`: seeds an empty database for a first message in a minute. */
export function addQuickstartCommand(program: Command, environment: CliEnvironment): void {
  program
    .command('quickstart')
    .description(
      'Seed an empty database: a simulator instance, a demo customer, an API key and two sender numbers',
    )
    .action(async (_options: unknown, command: Command) => {
      const { result, publicBaseUrl } = await withStore(environment, async (context) => {
        try {
          return {
            result: await runQuickstart(context.store, context.clock),
            publicBaseUrl: context.config.publicBaseUrl,
          };
        } catch (error) {
          if (!isDomainError(error) || error.code !== 'ALREADY_EXISTS') throw error;
          throw new CliRefusalError(
            [
              `Quickstart only seeds an empty database, and ${context.config.databaseUrl} already has data.`,
              'Nothing was changed. List what is there with `switchboard customers list` and',
              '`switchboard instances list`, or point DATABASE_URL at a new file to start over.',
            ].join('\n'),
          );
        }
      });
      // Where a client on this machine reaches the server: the same rule as every other tool.
      const serverUrl = resolveServerUrl(environment.env);
      const curl = firstMessageCurl(serverUrl, result.apiKey.key);
      const json = {
        instance: toInstanceView(result.instance, publicBaseUrl),
        customer: toCustomerView(result.customer),
        apiKey: result.apiKey,
        numbers: result.numbers.map(toAssignedNumberView),
        curl,
      };
      emit(environment, Boolean(command.optsWithGlobals().json), json, () =>
        [
          'Switchboard is ready to try.',
          '',
          `  Instance   ${result.instance.name} (simulator: imessage, sms, whatsapp)`,
          `  Customer   ${result.customer.name} (${result.customer.id})`,
          `  Senders    ${result.numbers.map((n) => `${n.phoneNumber}${n.isDefault ? ' (default)' : ''}`).join(', ')}`,
          '',
          'Your API key, shown this one time (only its hash is stored):',
          '',
          `  ${result.apiKey.key}`,
          '',
          'Start the server (pnpm start), then send a first message:',
          '',
          curl,
          '',
        ].join('\n'),
      );
    });
}
