import { join } from 'node:path';
import { type ClonedDatabase, cloneMessages } from './message-cloner';
import { createTemplateDatabase, type TemplateDatabase } from './template-database';

/**
 * Databases several scenarios share within one run (the growth and start-up scenarios both use
 * the large one), made once on first use.
 */
export class BenchFixtures {
  #template: Promise<TemplateDatabase> | undefined;
  readonly #databases = new Map<number, Promise<ClonedDatabase>>();

  /** Fixtures kept in `dir` (deleted with the run). */
  constructor(private readonly dir: string) {}

  /** The template the server wrote (one real message per simulator behaviour). */
  template(): Promise<TemplateDatabase> {
    this.#template ??= createTemplateDatabase(join(this.dir, 'template.db'));
    return this.#template;
  }

  /** A database of `messages` messages cloned from the template. */
  database(messages: number): Promise<ClonedDatabase> {
    let database = this.#databases.get(messages);
    if (!database) {
      database = this.template().then((template) =>
        cloneMessages(template.path, join(this.dir, `messages-${messages}.db`), messages),
      );
      this.#databases.set(messages, database);
    }
    return database;
  }
}
