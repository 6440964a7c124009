import { Command, CommanderError } from 'commander';
import { ConfigError, loadConfig } from '../config';
import { EncryptionKeyError } from '../crypto/field-cipher';
import { isDomainError } from '../domain/domain-error';
import { StartupError } from '../server-lock';
import { runServer } from '../server-process';
import { serverVersion } from '../version';
import { addAdminCommands } from './admin-commands';
import { addBackupCommands } from './backup-commands';
import { type CliEnvironment, withStore } from './cli-context';
import { CliRefusalError } from './cli-refusal-error';
import { addContactCommands } from './contact-commands';
import { addListenCommand } from './listen-command';
import { addQuickstartCommand } from './quickstart-command';
import { addSecretsCommands } from './secrets-commands';
import { addSendPolicyCommands } from './send-policy-commands';
import { addUnroutedCommands } from './unrouted-commands';
import { addWhatsAppCommands } from './whatsapp-pair-command';

function buildProgram(environment: CliEnvironment): Command {
  const program = new Command('switchboard')
    .description(
      'Switchboard: run the messaging gateway and manage its customers. Configuration comes from the environment, then from a .env file in the working directory.',
    )
    .version(serverVersion(), '-v, --version', 'print the version')
    .helpCommand(true)
    .option('--json', 'print results as JSON')
    .option(
      '--create-database',
      'create the SQLite database when DATABASE_URL names a file that does not exist',
    )
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => environment.stdout.write(text),
      writeErr: (text) => environment.stderr.write(text),
    });

  program.hook('preAction', (_program, action) => {
    const { createDatabase } = action.optsWithGlobals<{ createDatabase?: boolean }>();
    environment.createDatabase = createDatabase === true;
  });
  program
    .command('serve')
    .description('Start the server (configuration from the environment)')
    .action(async () => {
      await runServer(loadConfig(environment.env));
    });
  program
    .command('migrate')
    .description('Create the database or apply pending migrations')
    .action(async () => {
      const path = await withStore(environment, async (context) => context.config.databaseUrl, {
        create: true,
      });
      environment.stdout.write(`Database ready: ${path}\n`);
    });
  addQuickstartCommand(program, environment);
  addListenCommand(program, environment);
  addWhatsAppCommands(program, environment);
  addAdminCommands(program, environment);
  addUnroutedCommands(program, environment);
  addSendPolicyCommands(program, environment);
  addSecretsCommands(program, environment);
  addBackupCommands(program, environment);
  addContactCommands(program, environment);
  return program;
}

/**
 * Runs the `switchboard` CLI with `argv` (the arguments after the program name) and resolves with
 * the exit code: 0 on success, 1 on a usage error or when the operation was refused or failed.
 */
export async function runCli(argv: string[], environment: CliEnvironment): Promise<number> {
  const program = buildProgram(environment);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its message; help ends here too, with exit code 0.
    if (error instanceof CommanderError) return error.exitCode;
    if (
      error instanceof ConfigError ||
      error instanceof CliRefusalError ||
      error instanceof EncryptionKeyError
    ) {
      environment.stderr.write(`${error.message}\n`);
    } else if (error instanceof StartupError) {
      environment.stderr.write(`Switchboard could not start: ${error.message}\n`);
    } else if (isDomainError(error)) {
      environment.stderr.write(`error: ${error.code}: ${error.message}\n`);
    } else {
      environment.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
    }
    return 1;
  }
}
