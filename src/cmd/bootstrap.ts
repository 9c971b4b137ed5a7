/**
 * Start-up shared by every command: arguments, configuration (embedded default when no file is
 * given), logging, and the database. Invalid configuration stops the start naming the option.
 */
import { closeIronicMetrics, configureIronicMetrics } from '../metrics/ironic-metrics';
import { closeNotifications, configureNotifications } from '../notifications/notifier';
import { parseArgs } from '../conf/cli';
import { Config, InvalidOptionValue } from '../conf/config';
import { embeddedDefaults } from '../conf/embedded';
import { applyLabMode } from '../conf/lab';
import { configureLogging, log } from '../common/log';
import { maskMessage } from '../common/mask';
import { openDatabase, Database } from '../db/connection';

interface Bootstrapped {
  conf: Config;
  positional: string[];
  embedded: boolean;
}

export function bootstrap(argv: string[]): Bootstrapped {
  const args = parseArgs(argv);
  const embedded = args.configFiles.length === 0;
  let conf: Config;
  try {
    conf = new Config(args.configFiles, embedded ? embeddedDefaults() : {});
    applyLabMode(conf);
  } catch (err) {
    if (err instanceof InvalidOptionValue || err instanceof Error) fatal(err.message);
    throw err;
  }
  configureLogging({ debug: conf.bool('DEFAULT', 'debug'), logFile: conf.optStr('DEFAULT', 'log_file'), json: conf.bool('DEFAULT', 'use_json') });
  for (const warning of conf.warnings) log.warning(warning);
  configureNotifications(conf);
  configureIronicMetrics(conf);
  return { conf, positional: args.positional, embedded };
}

export async function openConfiguredDatabase(conf: Config): Promise<Database> {
  const url = conf.optStr('database', 'connection');
  if (!url) fatal('Option [database]connection is not set');
  try {
    return await openDatabase(url as string);
  } catch (err) {
    return fatal(`Cannot open [database]connection: ${(err as Error).message}`);
  }
}

/** A command's start-up or run failed outright: say why and exit non-zero, never an unhandled rejection. */
export function crash(err: unknown): never {
  return fatal(err instanceof Error ? err.stack ?? err.message : String(err));
}

export function fatal(message: string): never {
  process.stderr.write(`ERROR: ${maskMessage(message)}\n`);
  process.exit(1);
}

/** Stops cleanly on SIGINT/SIGTERM, running each closer once. */
export function onShutdown(closers: (() => Promise<void>)[]): void {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    for (const close of [...closers, closeNotifications, async () => closeIronicMetrics()]) {
      try {
        await close();
      } catch (err) {
        log.error(`Error during shutdown: ${(err as Error).message}`);
      }
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
