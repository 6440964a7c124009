import { eq, lt } from 'drizzle-orm';
import type { MediaRenditionRecord, MediaRenditionRepository } from '../media-rendition-repository';
import type { SqliteExecutor } from './executor';
import { mediaRenditions } from './schema-media';

/** {@link MediaRenditionRepository} on SQLite. */
export class SqliteMediaRenditionRepository implements MediaRenditionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: SqliteExecutor) {}

  insert(rendition: MediaRenditionRecord): Promise<void> {
    return this.run((db) => {
      db.insert(mediaRenditions)
        .values({ ...rendition, data: Buffer.from(rendition.data) })
        .onConflictDoNothing()
        .run();
    });
  }

  findById(id: string): Promise<MediaRenditionRecord | undefined> {
    return this.run((db) =>
      db.select().from(mediaRenditions).where(eq(mediaRenditions.id, id)).get(),
    );
  }

  deleteOlderThan(cutoff: Date): Promise<number> {
    return this.run(
      (db) => db.delete(mediaRenditions).where(lt(mediaRenditions.createdAt, cutoff)).run().changes,
    );
  }
}
