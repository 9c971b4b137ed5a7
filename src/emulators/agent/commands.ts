/**
 * The emulated agent's command list (IPA's `/v1/commands/`): every command gets an entry
 * `{id, command_name, command_params, command_status, command_error, command_result}`.
 * Asynchronous commands answer RUNNING at once and finish in the background; `?wait=true`
 * answers when they are done. Only one asynchronous command may run at a time, as in IPA.
 */
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CLEAN_STEPS, executeCleanStep, HARDWARE_MANAGER_VERSION, VersionMismatch } from './clean';
import { executeServiceStep, getServiceSteps } from './service';
import { AgentCommandError, writeImage, type Disks, type JsonObject } from './standby';

interface CommandEntry {
  id: string;
  command_name: string;
  command_params: JsonObject;
  command_status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CLEAN_VERSION_MISMATCH';
  command_error: JsonObject | null;
  command_result: unknown;
}

export class UnknownCommand extends Error {}

/** RescueExtension.write_rescue_password (the emulator only takes hashed passwords). */
async function writeRescuePassword(file: string, hashed: string): Promise<void> {
  try {
    await fsp.writeFile(file, hashed);
  } catch (err) {
    throw new AgentCommandError('CommandExecutionError', 'Command execution failed', 'Rescue Operation failed when writing ' +
      `the hashed rescue password to the password file. Error ${(err as Error).message}`);
  }
}
export class AgentBusy extends Error {}

const run = promisify(execFile);

/**
 * LogExtension.collect_system_logs: a gzipped tarball, base64-encoded. The emulator's "journal"
 * lists the commands it ran with their status.
 */
async function systemLogs(commands: readonly CommandEntry[]): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'agent-logs-'));
  try {
    const journal = commands.map((c) => `${c.command_name} ${c.command_status}`).join('\n');
    await fsp.writeFile(path.join(dir, 'journal'), `${journal}\n`);
    const { stdout } = await run('tar', ['-czf', '-', '-C', dir, 'journal'], { encoding: 'buffer' });
    return stdout.toString('base64');
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

type Handler = (params: JsonObject) => Promise<unknown>;

const DEPLOY_STEPS = {
  GenericHardwareManager: [
    { step: 'write_image', priority: 0, interface: 'deploy', reboot_requested: false,
      argsinfo: { image_info: { description: 'Image information', required: true },
        configdrive: { description: 'Configdrive', required: false } } },
  ],
};

export class CommandRunner {
  readonly commands: CommandEntry[] = [];
  /** Every command since the emulator started, across reboots (what a test inspects afterwards). */
  readonly history: CommandEntry[] = [];
  partitionUuids: Record<string, string> = {};
  poweredOff = false;
  /** What rescue.finalize_rescue received; IPA stops serving its API after it. */
  rescue: { password: string; hashed: boolean } | null = null;
  /** Where finalize_rescue writes the hash (IPA's /etc/ipa-rescue-config/ipa-rescue-password); null: nowhere. */
  rescuePasswordFile: string | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly disks: Disks) {}

  /** Synchronous commands answer with their result; asynchronous ones run in the background. */
  private handlers(): Record<string, { async: boolean; run: Handler }> {
    const write = async (info: JsonObject, configdrive: unknown) => {
      const r = await writeImage(this.disks, info, typeof configdrive === 'string' ? configdrive : null);
      this.partitionUuids = r.partitionUuids;
      return r.message;
    };
    return {
      'deploy.get_deploy_steps': { async: false, run: async () => ({ deploy_steps: DEPLOY_STEPS, hardware_manager_version: HARDWARE_MANAGER_VERSION }) },
      'deploy.execute_deploy_step': {
        async: true,
        run: async (p) => {
          const step = (p.step ?? {}) as JsonObject;
          if (step.step !== 'write_image') throw new AgentCommandError('InvalidCommandParamsError', 'Invalid command parameters', `Unknown deploy step ${String(step.step)}`);
          const args = (step.args ?? {}) as JsonObject;
          const message = await write((args.image_info ?? {}) as JsonObject, args.configdrive ?? null);
          return { deploy_result: { result: message }, deploy_step: step };
        },
      },
      'standby.prepare_image': {
        async: true,
        run: async (p) => ({ result: `prepare_image: ${await write((p.image_info ?? {}) as JsonObject, p.configdrive ?? null)}` }),
      },
      'standby.get_partition_uuids': { async: false, run: async () => this.partitionUuids },
      'image.install_bootloader': { async: true, run: async () => null },
      'standby.sync': { async: false, run: async () => null },
      'standby.power_off': { async: true, run: async () => { this.poweredOff = true; return null; } },
      'standby.run_image': { async: true, run: async () => null },
      'clean.get_clean_steps': {
        async: false, run: async () => ({ clean_steps: CLEAN_STEPS, hardware_manager_version: HARDWARE_MANAGER_VERSION }),
      },
      'clean.execute_clean_step': { async: true, run: (p) => executeCleanStep(this.disks, p) },
      'service.get_service_steps': { async: false, run: async () => getServiceSteps() },
      'service.execute_service_step': { async: true, run: (p) => executeServiceStep(p) },
      'rescue.finalize_rescue': {
        async: false,
        run: async (p) => {
          const rescue = { password: String(p.rescue_password ?? ''), hashed: p.hashed === true };
          if (this.rescuePasswordFile) await writeRescuePassword(this.rescuePasswordFile, rescue.password);
          this.rescue = rescue;
          return null;
        },
      },
      'log.collect_system_logs': { async: false, run: async () => ({ system_logs: await systemLogs(this.commands) }) },
    };
  }

  /** Runs `name`; resolves to the entry (finished when sync or `wait`). */
  async execute(name: string, params: JsonObject, wait: boolean): Promise<CommandEntry> {
    const handler = this.handlers()[name];
    if (!handler) throw new UnknownCommand(`Unknown command: ${name}`);
    if (handler.async && this.running) throw new AgentBusy('agent is busy');
    const entry: CommandEntry = {
      id: randomUUID(), command_name: name.split('.').slice(1).join('.'), command_params: params,
      command_status: 'RUNNING', command_error: null, command_result: null,
    };
    this.commands.push(entry);
    this.history.push(entry);
    const done = this.finish(entry, handler.run(params));
    if (!handler.async || wait) {
      await done;
    } else {
      this.running = done.finally(() => { this.running = null; });
    }
    return entry;
  }

  private async finish(entry: CommandEntry, work: Promise<unknown>): Promise<void> {
    try {
      entry.command_result = await work;
      entry.command_status = 'SUCCEEDED';
    } catch (err) {
      entry.command_status = err instanceof VersionMismatch ? 'CLEAN_VERSION_MISMATCH' : 'FAILED';
      entry.command_error = err instanceof AgentCommandError
        ? err.toJSON() : { type: 'CommandExecutionError', code: 500, message: 'Command execution failed', details: String((err as Error).message) };
    }
  }

  /** A fresh boot of the ramdisk: the command list starts empty again. */
  reboot(): void {
    this.commands.length = 0;
  }

  /** Lets in-flight work end (tests stop emulators after a deploy). */
  async idle(): Promise<void> {
    await this.running;
  }
}
