// The PostgreSQL server the benchmark and its development aids create their scratch databases on: DATABASE_URL,
// default this machine's (postgresql://postgres@127.0.0.1:5432/postgres).
import pg from 'pg';

export const SERVER_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on that server. */
export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the server's own database (CREATE / DROP DATABASE), on a connection of its own. */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
