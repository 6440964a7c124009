import { readFileSync } from 'node:fs';
import {
  CreateInstanceRequest,
  INSTANCE_SECRET_FIELDS,
  InstanceProvider,
  UpdateInstanceRequest,
  Uuid,
} from '@switchboard/contract';
import type { Command } from 'commander';
import { DomainError } from '../domain/domain-error';
import { toInstanceView } from '../domain/instances/instance-view';
import type { InstanceRecord } from '../store/instance-repository';
import { type CliEnvironment, type CommandContext, withStore } from './cli-context';
import { emit, formatTable } from './output';
import { parseInput } from './parse-input';
import { readSecretOption } from './secret-input';

/** An instance given by id or by name. */
export async function resolveInstanceId(
  context: CommandContext,
  idOrName: string,
): Promise<string> {
  if (Uuid.safeParse(idOrName).success) return idOrName;
  const instance = await context.store.instances.findByName(idOrName);
  if (!instance) throw new DomainError('VALIDATION_ERROR', `instance: no instance "${idOrName}"`);
  return instance.id;
}

/** Options every command that sets a config takes. */
interface ConfigOptions {
  config?: string;
  configFile?: string;
  secret?: string[];
}

function parseJson(value: string, source: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new DomainError('VALIDATION_ERROR', `${source}: not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new DomainError('VALIDATION_ERROR', `${source}: must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The config a command was given: `--config-file`, then `--config` (never with secrets in it),
 * then each `--secret`.
 */
async function configOf(
  options: ConfigOptions,
  provider: InstanceProvider | undefined,
  environment: CliEnvironment,
): Promise<Record<string, unknown> | undefined> {
  if (!options.config && !options.configFile && !options.secret?.length) return undefined;
  const inline = options.config ? parseJson(options.config, '--config') : {};
  const secretFields: readonly string[] = provider ? INSTANCE_SECRET_FIELDS[provider] : [];
  const leaked = Object.keys(inline).filter((field) => secretFields.includes(field));
  if (leaked.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `--config: ${leaked.join(', ')} is a secret; pass it with --secret ${leaked[0]}=env:NAME, =file:PATH or =prompt (or in --config-file), never on the command line`,
    );
  }
  const config: Record<string, unknown> = {
    ...(options.configFile
      ? parseJson(readFileSync(options.configFile, 'utf8'), '--config-file')
      : {}),
    ...inline,
  };
  for (const option of options.secret ?? []) {
    const [field, value] = await readSecretOption(option, environment);
    config[field] = value;
  }
  return config;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function describe(record: InstanceRecord): string {
  return `${record.name}, ${record.provider}: ${record.channels.join(', ')}${record.enabled ? '' : ', disabled'}`;
}

/**
 * Adds `switchboard instances …`: create, list, get, update, enable, disable, rotate the ingress
 * token, delete. Secrets are read from the environment, a file or a prompt (`--secret`).
 */
export function addInstanceCommands(program: Command, environment: CliEnvironment): void {
  const instances = program.command('instances').description('Manage provider instances');
  addCreateCommand(instances, environment);
  addReadCommands(instances, environment);
  addChangeCommands(instances, environment);
  addRotateIngressTokenCommand(instances, environment);
  addDeleteCommand(instances, environment);
}

/** Whether `--json` was given anywhere on the command line. */
function wantsJson(command: Command): boolean {
  return Boolean(command.optsWithGlobals().json);
}

/** Runs `work` on an instance, prints its view. */
async function show(
  environment: CliEnvironment,
  command: Command,
  work: (context: CommandContext) => Promise<InstanceRecord>,
  human: (record: InstanceRecord) => string,
): Promise<void> {
  const { record, baseUrl } = await withStore(environment, async (context) => ({
    record: await work(context),
    baseUrl: context.config.publicBaseUrl,
  }));
  const view = toInstanceView(record, baseUrl);
  emit(environment, wantsJson(command), view, () =>
    [human(record), `  ingress URL: ${view.ingressUrl}`].join('\n'),
  );
}

/** Adds `instances create`: registers an instance and prints its ingress URL. */
function addCreateCommand(instances: Command, environment: CliEnvironment): void {
  instances
    .command('create')
    .description('Register a provider instance and print its ingress URL')
    .requiredOption('--name <name>', 'unique friendly name')
    .requiredOption('--provider <provider>', 'simulator, bluebubbles, twilio or baileys')
    .option('--channels <list>', "comma-separated channels (default: all the provider's)")
    .option('--config <json>', 'settings as a JSON object (no secrets)')
    .option('--config-file <path>', 'settings as a JSON file (may hold secrets)')
    .option(
      '--secret <field=source>',
      'a secret: field=env:NAME, field=file:PATH or field=prompt',
      collect,
    )
    .option('--disabled', 'create it stopped', false)
    .action(
      async (
        options: ConfigOptions & {
          name: string;
          provider: string;
          channels?: string;
          disabled: boolean;
        },
        command: Command,
      ) => {
        const provider = InstanceProvider.safeParse(options.provider);
        const input = parseInput(CreateInstanceRequest, {
          name: options.name,
          provider: options.provider,
          ...(options.channels
            ? { channels: options.channels.split(',').map((channel) => channel.trim()) }
            : {}),
          config:
            (await configOf(options, provider.success ? provider.data : undefined, environment)) ??
            {},
          enabled: !options.disabled,
        });
        await show(
          environment,
          command,
          (c) => c.services.instances.create(input),
          (record) => `Created instance ${record.id} (${describe(record)}).`,
        );
      },
    );
}

/** Adds `instances list` and `instances get`. */
function addReadCommands(instances: Command, environment: CliEnvironment): void {
  instances
    .command('list')
    .description('List provider instances')
    .action(async (_options: unknown, command: Command) => {
      const { list, baseUrl } = await withStore(environment, async (c) => ({
        list: await c.services.instances.list(),
        baseUrl: c.config.publicBaseUrl,
      }));
      const views = list.map((record) => toInstanceView(record, baseUrl));
      emit(environment, wantsJson(command), views, () =>
        views.length === 0
          ? 'No instances.'
          : formatTable([
              ['ID', 'NAME', 'PROVIDER', 'CHANNELS', 'ENABLED', 'HEALTH'],
              ...views.map((i) => [
                i.id,
                i.name,
                i.provider,
                i.channels.join(','),
                i.enabled ? 'yes' : 'no',
                i.healthStatus,
              ]),
            ]),
      );
    });
  instances
    .command('get <instance>')
    .description('Show an instance (id or name), secrets masked')
    .action(async (instance: string, _options: unknown, command: Command) => {
      await show(
        environment,
        command,
        async (c) => c.services.instances.get(await resolveInstanceId(c, instance)),
        (record) =>
          [
            `Instance ${record.id} (${describe(record)}), health ${record.healthStatus}.`,
            `  config: ${JSON.stringify(toInstanceView(record, '').config)}`,
          ].join('\n'),
      );
    });
}

/** Adds `instances update`, `instances enable` and `instances disable`. */
function addChangeCommands(instances: Command, environment: CliEnvironment): void {
  instances
    .command('update <instance>')
    .description('Change an instance: name, channels, or settings merged into the stored ones')
    .option('--name <name>', 'new name')
    .option('--channels <list>', 'comma-separated channels')
    .option('--config <json>', 'settings to merge (no secrets; null removes one)')
    .option('--config-file <path>', 'settings to merge, as a JSON file (may hold secrets)')
    .option(
      '--secret <field=source>',
      'a secret: field=env:NAME, field=file:PATH or field=prompt',
      collect,
    )
    .action(
      async (
        instance: string,
        options: ConfigOptions & { name?: string; channels?: string },
        command: Command,
      ) => {
        await show(
          environment,
          command,
          async (c) => {
            const id = await resolveInstanceId(c, instance);
            const current = await c.services.instances.get(id);
            const config = await configOf(options, current.provider, environment);
            const input = parseInput(UpdateInstanceRequest, {
              ...(options.name ? { name: options.name } : {}),
              ...(options.channels
                ? { channels: options.channels.split(',').map((channel) => channel.trim()) }
                : {}),
              ...(config ? { config } : {}),
            });
            return c.services.instances.update(id, input);
          },
          (record) => `Updated instance ${record.id} (${describe(record)}).`,
        );
      },
    );
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    instances
      .command(`${verb} <instance>`)
      .description(enabled ? 'Start a disabled instance' : 'Stop an instance; its messages wait')
      .action(async (instance: string, _options: unknown, command: Command) => {
        await show(
          environment,
          command,
          async (c) =>
            c.services.instances.update(await resolveInstanceId(c, instance), { enabled }),
          (record) =>
            `${enabled ? 'Enabled' : 'Disabled'} instance ${record.id} (${describe(record)}).`,
        );
      });
  }
}

/** Adds `instances rotate-ingress-token`: a new ingress URL, the old one stops working. */
function addRotateIngressTokenCommand(instances: Command, environment: CliEnvironment): void {
  instances
    .command('rotate-ingress-token <instance>')
    .description('Issue a new ingress URL; the old one stops working at once')
    .action(async (instance: string, _options: unknown, command: Command) => {
      await show(
        environment,
        command,
        async (c) => c.services.instances.rotateIngressToken(await resolveInstanceId(c, instance)),
        (record) =>
          `Rotated the ingress token of ${record.id} (${record.name}); give the upstream the new URL.`,
      );
    });
}

/** Adds `instances delete` (with `--force`, also withdraws the numbers it serves). */
function addDeleteCommand(instances: Command, environment: CliEnvironment): void {
  instances
    .command('delete <instance>')
    .description('Delete an instance (refused while numbers use it, unless --force)')
    .option('--force', 'also withdraw the sender numbers it serves', false)
    .action(async (instance: string, options: { force: boolean }, command: Command) => {
      const { id, releasedNumbers } = await withStore(environment, async (c) => {
        const id = await resolveInstanceId(c, instance);
        return { id, ...(await c.services.instances.delete(id, options.force)) };
      });
      emit(environment, wantsJson(command), { id, deleted: true, releasedNumbers }, () =>
        releasedNumbers.length === 0
          ? `Deleted instance ${id}.`
          : `Deleted instance ${id} and withdrew ${releasedNumbers.join(', ')}.`,
      );
    });
}
