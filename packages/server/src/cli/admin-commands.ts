import {
  AssignNumberRequest,
  CreateApiKeyRequest,
  CreateCustomerRequest,
  CustomerNumberParams,
} from '@switchboard/contract';
import type { Command } from 'commander';
import { toApiKeyView } from '../domain/api-keys/api-key-service';
import { toCustomerView } from '../domain/customers/customer-service';
import { toAssignedNumberView } from '../domain/numbers/number-service';
import { type CliEnvironment, type CommandContext, withStore } from './cli-context';
import { addInstanceCommands, resolveInstanceId } from './instance-commands';
import { emit, formatTable } from './output';
import { parseInput } from './parse-input';

/** Whether `--json` was given anywhere on the command line. */
function wantsJson(command: Command): boolean {
  return Boolean(command.optsWithGlobals().json);
}

/**
 * Adds the operator commands (customers, api-keys, instances, numbers) to the program. They run
 * the same domain services as `/admin/v1`, directly on the configured database.
 */
export function addAdminCommands(program: Command, environment: CliEnvironment): void {
  addCustomerCommands(program, environment);
  addApiKeyCommands(program, environment);
  addInstanceCommands(program, environment);
  addNumberCommands(program, environment);
}

/** Runs a command's work on the configured database. */
function storeRunner(environment: CliEnvironment) {
  return <T>(work: (context: CommandContext) => Promise<T>) => withStore(environment, work);
}

/** Adds `switchboard customers …`: create, list, delete. */
function addCustomerCommands(program: Command, environment: CliEnvironment): void {
  const run = storeRunner(environment);
  const customers = program.command('customers').description('Manage customer accounts');
  customers
    .command('create')
    .description('Create a customer')
    .requiredOption('--name <name>', 'display name')
    .option('--otp-handling <mode>', 'suppress (default) or annotate')
    .option(
      '--opt-out-handling <mode>',
      'gateway (default: sends to opted-out recipients are refused) or upstream',
    )
    .action(
      async (
        options: { name: string; otpHandling?: string; optOutHandling?: string },
        command: Command,
      ) => {
        const settings = {
          ...(options.otpHandling ? { otpHandling: options.otpHandling } : {}),
          ...(options.optOutHandling ? { optOutHandling: options.optOutHandling } : {}),
        };
        const input = parseInput(CreateCustomerRequest, {
          name: options.name,
          ...(Object.keys(settings).length > 0 ? { settings } : {}),
        });
        const customer = toCustomerView(await run((c) => c.services.customers.create(input)));
        emit(environment, wantsJson(command), customer, () =>
          [`Created customer ${customer.id} (${customer.name})`].join('\n'),
        );
      },
    );
  customers
    .command('list')
    .description('List customers')
    .action(async (_options: unknown, command: Command) => {
      const list = (await run((c) => c.services.customers.list())).map(toCustomerView);
      emit(environment, wantsJson(command), list, () =>
        list.length === 0
          ? 'No customers.'
          : formatTable([
              ['ID', 'NAME', 'OTP', 'CREATED'],
              ...list.map((c) => [c.id, c.name, c.settings.otpHandling, c.createdAt]),
            ]),
      );
    });
  customers
    .command('delete <customerId>')
    .description('Delete a customer: its keys answer 403, its numbers are released')
    .action(async (customerId: string, _options: unknown, command: Command) => {
      await run((c) => c.services.customers.delete(customerId));
      emit(
        environment,
        wantsJson(command),
        { id: customerId, deleted: true },
        () =>
          `Deleted customer ${customerId}: its API keys now answer 403 and its numbers were released.`,
      );
    });
}

/** Adds `switchboard api-keys …`: create, list, revoke. */
function addApiKeyCommands(program: Command, environment: CliEnvironment): void {
  const run = storeRunner(environment);
  const keys = program.command('api-keys').description("Manage customers' API keys");
  keys
    .command('create <customerId>')
    .description('Issue an API key (the plaintext is printed once)')
    .option('--name <name>', 'a label for the key')
    .action(async (customerId: string, options: { name?: string }, command: Command) => {
      const input = parseInput(CreateApiKeyRequest, options.name ? { name: options.name } : {});
      const key = await run((c) => c.services.apiKeys.issue(customerId, input));
      emit(environment, wantsJson(command), key, () =>
        [
          `Created API key ${key.id} for customer ${key.customerId}.`,
          'The key is shown this one time; store it now:',
          '',
          `  ${key.key}`,
        ].join('\n'),
      );
    });
  keys
    .command('list <customerId>')
    .description("List a customer's keys (never their plaintext)")
    .action(async (customerId: string, _options: unknown, command: Command) => {
      const list = (await run((c) => c.services.apiKeys.list(customerId))).map(toApiKeyView);
      emit(environment, wantsJson(command), list, () =>
        list.length === 0
          ? 'No API keys.'
          : formatTable([
              ['ID', 'PREFIX', 'NAME', 'CREATED', 'REVOKED'],
              ...list.map((k) => [k.id, k.prefix, k.name ?? '', k.createdAt, k.revokedAt ?? '']),
            ]),
      );
    });
  keys
    .command('revoke <keyId>')
    .description('Revoke an API key at once')
    .action(async (keyId: string, _options: unknown, command: Command) => {
      const key = toApiKeyView(await run((c) => c.services.apiKeys.revoke(keyId)));
      emit(
        environment,
        wantsJson(command),
        key,
        () => `Revoked API key ${key.id} (${key.prefix}…).`,
      );
    });
}

/** Adds `switchboard numbers …`: assign, list, remove. */
function addNumberCommands(program: Command, environment: CliEnvironment): void {
  const run = storeRunner(environment);
  const numbers = program.command('numbers').description("Manage customers' sender numbers");
  numbers
    .command('assign <customerId>')
    .description('Authorize a sender number for a customer')
    .requiredOption('--phone <e164>', 'the E.164 phone number')
    .requiredOption('--instance <idOrName>', 'the instance that serves it (id or name)')
    .option('--email <address>', 'an e-mail style address of the same sender')
    .option('--default', 'make it the default sender', false)
    .action(
      async (
        customerId: string,
        options: { phone: string; instance: string; email?: string; default: boolean },
        command: Command,
      ) => {
        const number = await run(async (c) => {
          const input = parseInput(AssignNumberRequest, {
            phoneNumber: options.phone,
            instanceId: await resolveInstanceId(c, options.instance),
            isDefault: options.default,
            ...(options.email ? { email: options.email } : {}),
          });
          return toAssignedNumberView(await c.services.numbers.assign(customerId, input));
        });
        emit(
          environment,
          wantsJson(command),
          number,
          () =>
            `Assigned ${number.phoneNumber}${number.isDefault ? ' (default)' : ''} to customer ${number.customerId} via ${number.instanceName}.`,
        );
      },
    );
  numbers
    .command('list <customerId>')
    .description("List a customer's sender numbers")
    .action(async (customerId: string, _options: unknown, command: Command) => {
      const list = (await run((c) => c.services.numbers.listForOperator(customerId))).map(
        toAssignedNumberView,
      );
      emit(environment, wantsJson(command), list, () =>
        list.length === 0
          ? 'No numbers.'
          : formatTable([
              ['PHONE', 'EMAIL', 'INSTANCE', 'DEFAULT', 'HEALTH'],
              ...list.map((n) => [
                n.phoneNumber,
                n.email ?? '',
                n.instanceName,
                n.isDefault ? 'yes' : '',
                n.healthStatus,
              ]),
            ]),
      );
    });
  numbers
    .command('remove <customerId> <phoneNumber>')
    .description('Withdraw a sender number from a customer')
    .action(
      async (customerId: string, phoneNumber: string, _options: unknown, command: Command) => {
        const params = parseInput(CustomerNumberParams, { id: customerId, phoneNumber });
        await run((c) => c.services.numbers.remove(params.id, params.phoneNumber));
        emit(
          environment,
          wantsJson(command),
          { phoneNumber: params.phoneNumber, deleted: true },
          () => `Removed ${params.phoneNumber} from customer ${params.id}.`,
        );
      },
    );
}
