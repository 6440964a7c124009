import { eq, lt } from 'drizzle-orm';
import type { MediaRenditionRecord, MediaRenditionRepository } from '../media-rendition-repository';
import { changed, first, type PgExecutor } from './pg-executor';
import { mediaRenditions } from './pg-schema-media';

/** {@link MediaRenditionRepository} on PostgreSQL. */
export class PgMediaRenditionRepository implements MediaRenditionRepository {
  /** Creates the repository over an executor. */
  constructor(private readonly run: PgExecutor) {}

  insert(rendition: MediaRenditionRecord): Promise<void> {
    return this.run(async (db) => {
      await db
        .insert(mediaRenditions)
        .values({ ...rendition, data: Buffer.from(rendition.data) })
        .onConflictDoNothing();
    });
  }

  findById(id: string): Promise<MediaRenditionRecord | undefined> {
    return this.run((db) =>
      db.select().from(mediaRenditions).where(eq(mediaRenditions.id, id)).limit(1).then(first),
    );
  }

  deleteOlderThan(cutoff: Date): Promise<number> {
    return this.run(async (db) =>
      changed(await db.delete(mediaRenditions).where(lt(mediaRenditions.createdAt, cutoff))),
    );
  }
}
