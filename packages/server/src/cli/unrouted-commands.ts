import {
  DiscardUnroutedInboundRequest,
  ListUnroutedInboundQuery,
  UnroutedInboundIdParams,
} from '@switchboard/contract';
import type { Command } from 'commander';
import { toUnroutedInboundItem } from '../domain/inbound/unrouted-inbound-service';
import { type CliEnvironment, type CommandContext, withStore } from './cli-context';
import { resolveInstanceId } from './instance-commands';
import { emit, formatTable } from './output';
import { parseInput } from './parse-input';

/** Options of the commands that filter kept items. */
interface FilterOptions {
  instance?: string;
  address?: string;
}

/** The filter the options name, the instance resolved from its name. */
async function filterOf(
  context: CommandContext,
  options: FilterOptions,
): Promise<{ instanceId?: string; address?: string }> {
  return {
    ...(options.instance ? { instanceId: await resolveInstanceId(context, options.instance) } : {}),
    ...(options.address ? { address: options.address } : {}),
  };
}

/**
 * Adds `unrouted list` and `unrouted discard`: the inbound items kept because no customer has
 * their receiving address, as `/admin/v1/unrouted-inbound` shows them. Assigning the address
 * (`numbers assign`) delivers them: the running server does it within `UNROUTED_INBOUND_INTERVAL_MS`.
 */
export function addUnroutedCommands(program: Command, environment: CliEnvironment): void {
  const run = <T>(work: (context: CommandContext) => Promise<T>) => withStore(environment, work);
  const json = (command: Command) => Boolean(command.optsWithGlobals().json);
  const unrouted = program
    .command('unrouted')
    .description('Inbound items kept because no customer has their receiving address');
  unrouted
    .command('list')
    .description('List the kept inbound items, oldest first')
    .option('--instance <idOrName>', 'only those this instance received')
    .option('--address <address>', 'only those to this receiving address')
    .option('--limit <n>', 'at most this many (1 to 500)', '100')
    .action(async (options: FilterOptions & { limit: string }, command: Command) => {
      const result = await run(async (c) => {
        const query = parseInput(ListUnroutedInboundQuery, {
          ...(await filterOf(c, options)),
          limit: options.limit,
        });
        const { limit, ...filter } = query;
        const found = await c.services.unroutedInbound.list(filter, limit);
        return { items: found.items.map(toUnroutedInboundItem), total: found.total };
      });
      emit(environment, json(command), result, () =>
        result.total === 0
          ? 'No kept inbound items.'
          : [
              formatTable([
                ['ID', 'RECEIVED', 'ADDRESS', 'KIND', 'FROM', 'REASON'],
                ...result.items.map((item) => [
                  item.id,
                  item.receivedAt,
                  item.address,
                  item.kind,
                  item.from ?? '',
                  item.reason,
                ]),
              ]),
              `${result.total} kept; assign an address (numbers assign) to deliver its items, or discard them (unrouted discard).`,
            ].join('\n'),
      );
    });
  unrouted
    .command('discard [id]')
    .description(
      'Forget kept inbound items undelivered: one by id, or all of an address or instance',
    )
    .option('--instance <idOrName>', 'every item this instance received')
    .option('--address <address>', 'every item to this receiving address')
    .action(async (id: string | undefined, options: FilterOptions, command: Command) => {
      if (id !== undefined) {
        const params = parseInput(UnroutedInboundIdParams, { id });
        await run((c) => c.services.unroutedInbound.discard(params.id));
        emit(
          environment,
          json(command),
          { id: params.id, discarded: true },
          () => `Discarded ${params.id}.`,
        );
        return;
      }
      const discarded = await run(async (c) => {
        const filter = parseInput(DiscardUnroutedInboundRequest, await filterOf(c, options));
        return c.services.unroutedInbound.discardMatching(filter);
      });
      emit(
        environment,
        json(command),
        { discarded },
        () => `Discarded ${discarded} kept inbound items.`,
      );
    });
}
