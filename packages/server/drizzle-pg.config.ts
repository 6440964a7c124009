import { defineConfig } from 'drizzle-kit';

/** drizzle-kit reads the PostgreSQL schema here and writes its migrations to `drizzle-pg/`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/postgres/pg-schema*.ts',
  out: './drizzle-pg',
});
