/**
 * Parses the SQLAlchemy URL of `[database]connection` into a knex configuration.
 * Supported: sqlite (better-sqlite3) and mysql/mariadb with any DBAPI driver suffix (mysql2).
 */
import type { Knex } from 'knex';
import { UnsupportedDatabaseError } from './errors';

interface SqliteTarget {
  dialect: 'sqlite';
  /** ':memory:' or a filesystem path (relative paths are relative to the process cwd). */
  filename: string;
}

interface MysqlTarget {
  dialect: 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  charset: string;
  socketPath?: string;
}

export type DatabaseTarget = SqliteTarget | MysqlTarget;

const URL_SHAPE = /^([A-Za-z0-9_]+)(?:\+([A-Za-z0-9_]+))?:\/\/(.*)$/s;

function parseSqlite(rest: string): SqliteTarget {
  // sqlite:// -> memory; sqlite:///rel -> "rel"; sqlite:////abs -> "/abs"
  const withoutQuery = rest.split('?')[0];
  if (withoutQuery === '' || withoutQuery === '/' || withoutQuery === '/:memory:') {
    return { dialect: 'sqlite', filename: ':memory:' };
  }
  if (!withoutQuery.startsWith('/')) {
    throw new UnsupportedDatabaseError('sqlite URLs take no host; use sqlite:///relative or sqlite:////absolute');
  }
  return { dialect: 'sqlite', filename: decodeURIComponent(withoutQuery.slice(1)) };
}

function splitAuthority(authority: string): { user: string; password: string; hostPort: string } {
  const at = authority.lastIndexOf('@');
  if (at < 0) return { user: '', password: '', hostPort: authority };
  const userInfo = authority.slice(0, at);
  const colon = userInfo.indexOf(':');
  const user = colon < 0 ? userInfo : userInfo.slice(0, colon);
  const password = colon < 0 ? '' : userInfo.slice(colon + 1);
  return { user: decodeURIComponent(user), password: decodeURIComponent(password), hostPort: authority.slice(at + 1) };
}

function splitHostPort(hostPort: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(hostPort);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : 3306 };
  const [host, port] = hostPort.split(':');
  if (port !== undefined && !/^\d+$/.test(port)) throw new UnsupportedDatabaseError(`bad port "${port}"`);
  return { host: host || 'localhost', port: port ? Number(port) : 3306 };
}

function parseMysql(rest: string): MysqlTarget {
  const queryAt = rest.indexOf('?');
  const main = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  const slash = main.indexOf('/');
  const authority = slash < 0 ? main : main.slice(0, slash);
  const database = slash < 0 ? '' : decodeURIComponent(main.slice(slash + 1));
  if (!database) throw new UnsupportedDatabaseError('a MySQL URL must name a database');
  const { user, password, hostPort } = splitAuthority(authority);
  const { host, port } = splitHostPort(hostPort);
  const target: MysqlTarget = {
    dialect: 'mysql', host, port, user: user || 'root', password, database,
    charset: query.get('charset') ?? 'utf8mb4',
  };
  const socket = query.get('unix_socket');
  if (socket) target.socketPath = socket;
  return target;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const m = URL_SHAPE.exec(url.trim());
  if (!m) throw new UnsupportedDatabaseError(`not an SQLAlchemy URL: "${url}"`);
  const dialect = m[1].toLowerCase();
  if (dialect === 'sqlite') return parseSqlite(m[3]);
  if (dialect === 'mysql' || dialect === 'mariadb') return parseMysql(m[3]);
  throw new UnsupportedDatabaseError(`unsupported database dialect "${dialect}" (supported: sqlite, mysql)`);
}

/** Knex config for a target; connection tuning (pragmas, pool hooks) is applied by connection.ts. */
export function knexConfigFor(target: DatabaseTarget): Knex.Config {
  if (target.dialect === 'sqlite') {
    return { client: 'better-sqlite3', connection: { filename: target.filename }, useNullAsDefault: true };
  }
  const connection: Knex.MySql2ConnectionConfig = {
    user: target.user, password: target.password, database: target.database,
    charset: target.charset, timezone: 'Z', dateStrings: true, supportBigNumbers: true,
  };
  if (target.socketPath) connection.socketPath = target.socketPath;
  else { connection.host = target.host; connection.port = target.port; }
  return { client: 'mysql2', connection };
}
