import type { Command } from 'commander';
import { generateWebhookSecret } from '../domain/webhooks/webhook-secret';
import type { CliEnvironment } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import {
  type CustomerApiOptions,
  customerApiOf,
  interruptSignal,
  withCustomerApiOptions,
} from './customer-api';
import { forwardEvents } from './event-forwarder';
import { StreamRefusedError } from './event-stream-follower';

/** Options of `switchboard listen`. */
interface ListenOptions extends CustomerApiOptions {
  forwardTo: string;
  events?: string;
  secret?: string;
}

/**
 * `switchboard listen --forward-to <url>`: delivers the customer's events to a local URL, signed
 * with a secret it prints, the way the Stripe CLI does; it runs until interrupted (or until
 * `environment.signal` aborts).
 */
export function addListenCommand(program: Command, environment: CliEnvironment): void {
  withCustomerApiOptions(
    program
      .command('listen')
      .description(
        'Forward your events to a local URL, signed like webhook deliveries (no public URL needed)',
      )
      .requiredOption('--forward-to <url>', 'the local URL each event is POSTed to')
      .option('--events <types>', 'comma-separated event types (default: all)'),
  )
    .option('--secret <secret>', 'the signing secret to use (default: a new one, printed)')
    .action(async (options: ListenOptions) => {
      const { apiKey, baseUrl } = customerApiOf(options, environment);
      let forwardTo: URL;
      try {
        forwardTo = new URL(options.forwardTo);
      } catch {
        throw new CliRefusalError(`--forward-to must be a URL, got ${options.forwardTo}`);
      }
      const secret = options.secret ?? generateWebhookSecret();
      environment.stdout.write(
        `Signing secret: ${secret}\n(verify deliveries with it, e.g. SWITCHBOARD_WEBHOOK_SECRET=${secret})\n`,
      );
      try {
        await forwardEvents({
          baseUrl,
          apiKey,
          forwardTo: forwardTo.href,
          events: options.events,
          secret,
          signal: interruptSignal(environment),
          ...environment.eventStream,
          log: (line) => environment.stdout.write(`${line}\n`),
        });
      } catch (error) {
        if (error instanceof StreamRefusedError) throw new CliRefusalError(error.message);
        throw error;
      }
    });
}
