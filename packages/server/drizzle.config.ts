import { defineConfig } from 'drizzle-kit';

/** drizzle-kit reads the SQLite schema here and writes migrations to `drizzle/`. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/store/sqlite/schema*.ts',
  out: './drizzle',
});
