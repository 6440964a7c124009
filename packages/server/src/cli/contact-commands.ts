import { AdminEraseContactRequest } from '@switchboard/contract';
import type { Command } from 'commander';
import { toContactErasureView } from '../domain/contact-erasure/contact-erasure-service';
import { type CliEnvironment, withStore } from './cli-context';
import { emit, formatTable } from './output';
import { parseInput } from './parse-input';

/**
 * Adds `contacts erase <address>` (forget a contact, as `POST /admin/v1/contact-erasures` does:
 * across customers, or one with `--customer`) and `contacts erasures` (their records).
 */
export function addContactCommands(program: Command, environment: CliEnvironment): void {
  const json = (command: Command) => Boolean(command.optsWithGlobals().json);
  const contacts = program.command('contacts').description('Forget contacts (erasure)');
  contacts
    .command('erase')
    .description(
      'Erase everything held about an address (messages, content, attachments, events, delivery logs, chats); the opt-out fact stays',
    )
    .argument('<address>', 'E.164 number, e-mail address or WhatsApp phone JID')
    .option('--customer <id>', "only this customer's data (default: every customer's)")
    .action(async (address: string, options: { customer?: string }, command: Command) => {
      const body = parseInput(AdminEraseContactRequest, {
        address,
        ...(options.customer ? { customerId: options.customer } : {}),
      });
      const record = await withStore(environment, (c) =>
        c.services.contactErasures.erase(body.address, {
          customerId: body.customerId ?? null,
          requestedBy: 'operator',
        }),
      );
      const view = toContactErasureView(record);
      emit(environment, json(command), view, () =>
        [
          `Erased ${address} (${view.id}, hash ${view.addressHash.slice(0, 12)}…):`,
          formatTable([
            ['kind', 'count'],
            ...Object.entries(view.counts).map(([kind, n]) => [kind, String(n)]),
          ]),
        ].join('\n'),
      );
    });
  contacts
    .command('erasures')
    .description('List erasures, newest first (the last 100)')
    .option('--customer <id>', "one customer's (default: the operator's across customers)")
    .action(async (options: { customer?: string }, command: Command) => {
      const records = await withStore(environment, (c) =>
        c.services.contactErasures.list(options.customer ?? null),
      );
      const views = records.map(toContactErasureView);
      emit(environment, json(command), views, () =>
        views.length === 0
          ? 'No erasures.'
          : formatTable([
              ['id', 'when', 'by', 'messages', 'events'],
              ...views.map((v) => [
                v.id,
                v.createdAt,
                v.requestedBy,
                String(v.counts.messages),
                String(v.counts.events),
              ]),
            ]),
      );
    });
}
