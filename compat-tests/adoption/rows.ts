/** Row counts per table of a MariaDB database, to prove the switch-over lost nothing. */
import { sql } from '../scaleout/mariadb';

export function rowCounts(database: string): Map<string, number> {
  const tables = sql(`SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${database}' AND TABLE_TYPE = 'BASE TABLE'`)
    .split('\n').filter((t) => t.length > 0);
  const counts = new Map<string, number>();
  if (tables.length === 0) return counts;
  const query = tables.map((t) => `SELECT '${t}', COUNT(*) FROM \`${t}\``).join(' UNION ALL ');
  for (const line of sql(query, database).split('\n').filter((l) => l.length > 0)) {
    const [table, n] = line.split('\t');
    counts.set(table, Number(n));
  }
  return counts;
}
