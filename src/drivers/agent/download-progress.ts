/**
 * Image download progress while the conductor caches an instance image. Ironic 21.4.4 records
 * none; ironic-ts shows it where operators look:
 *  - driver_internal_info.image_download_progress = {image_source, bytes, total, percent,
 *    started_at, updated_at} (total and percent null when the size is unknown), written at
 *    most once per SAVE_INTERVAL_MS and removed when the download ends, whatever the outcome;
 *  - an INFO log line per LOG_PERCENT_STEP percent (or per LOG_BYTES_STEP bytes when the size
 *    is unknown) and one when it ends, with the rate.
 * A node whose image is already cached, or who joins a shared download late, records only
 * what it sees.
 */
import { log } from '../../common/log';
import type { DownloadProgress } from '../../images/download';
import type { DriverTask } from '../base';

const PROGRESS_KEY = 'image_download_progress';
const SAVE_INTERVAL_MS = 1000;
const LOG_PERCENT_STEP = 10;
const LOG_BYTES_STEP = 100 * 1024 * 1024;

const MiB = 1024 * 1024;
const percentOf = (p: DownloadProgress) => (p.total ? Math.floor((p.bytes / p.total) * 1000) / 10 : null);

export class DownloadProgressRecorder {
  private readonly startedAt = new Date();
  private latest: DownloadProgress | undefined;
  private lastSaveAt = 0;
  private saving: Promise<void> = Promise.resolve();
  private recorded = false;
  private logMark = 0;

  constructor(private readonly task: DriverTask, private readonly imageSource: string) {}

  /** The cache's progress callback: cheap, synchronous; saves and logs are throttled. */
  readonly onProgress = (p: DownloadProgress): void => {
    this.latest = p;
    this.maybeLog(p);
    const now = Date.now();
    if (now - this.lastSaveAt < SAVE_INTERVAL_MS) return;
    this.lastSaveAt = now;
    // One save at a time, in order; a failed progress write never fails the deploy.
    this.saving = this.saving.then(() => this.save()).catch((err: Error) => {
      log.warning(`Could not record image download progress for node ${this.task.node.uuid}: ${err.message}`);
    });
  };

  private maybeLog(p: DownloadProgress): void {
    const mark = p.total ? Math.floor((percentOf(p) ?? 0) / LOG_PERCENT_STEP) : Math.floor(p.bytes / LOG_BYTES_STEP);
    if (mark <= this.logMark) return;
    this.logMark = mark;
    const size = p.total ? ` of ${p.total} (${percentOf(p)}%)` : '';
    log.info(`Downloading image ${this.imageSource} for node ${this.task.node.uuid}: ${p.bytes} bytes${size}`);
  }

  private async save(): Promise<void> {
    const p = this.latest;
    if (!p) return;
    this.recorded = true;
    this.task.node.driver_internal_info = {
      ...(this.task.node.driver_internal_info ?? {}),
      [PROGRESS_KEY]: {
        image_source: this.imageSource,
        bytes: p.bytes,
        total: p.total ?? null,
        percent: percentOf(p),
        started_at: this.startedAt.toISOString(),
        updated_at: new Date().toISOString(),
      },
    };
    await this.task.saveNode();
  }

  /** Ends the record: waits for a pending write, then removes the key (saved only if written). */
  async finish(ok: boolean): Promise<void> {
    await this.saving;
    if (this.latest) {
      const secs = Math.max(0.001, (Date.now() - this.startedAt.getTime()) / 1000);
      log.info(`Image ${this.imageSource} for node ${this.task.node.uuid} ${ok ? 'downloaded' : 'download failed after'} ` +
        `${this.latest.bytes} bytes in ${secs.toFixed(1)} s (${(this.latest.bytes / MiB / secs).toFixed(1)} MiB/s)`);
    }
    const { [PROGRESS_KEY]: had, ...rest } = this.task.node.driver_internal_info ?? {};
    if (had === undefined) return;
    this.task.node.driver_internal_info = rest;
    if (this.recorded) await this.task.saveNode();
  }
}
