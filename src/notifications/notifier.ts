/**
 * Ironic's versioned notifier (ironic/common/rpc.py VERSIONED_NOTIFIER, objects/notification.py
 * NotificationBase.emit): a notification is sent when [DEFAULT]notification_level is set and its
 * level is at least that one, to each of [DEFAULT]versioned_notifications_topics, through each
 * [oslo_messaging_notifications]driver, as oslo.messaging's Notifier builds it. Sending never
 * blocks or fails the caller: messages queue (bounded) behind the broker and are dropped, with a
 * warning, when it is away.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../conf/config';
import { log } from '../common/log';
import { buildPayload, PayloadName } from './payloads';
import { AmqpNotificationTransport, type NotificationMessage } from './amqp-transport';
import { pythonUtcNow } from '../common/python/utcnow';

const LEVELS = ['debug', 'info', 'warning', 'error', 'critical'] as const;
export type NotificationLevel = (typeof LEVELS)[number];
export type NotificationStatus = 'start' | 'end' | 'error' | 'success';

/** What the notification is about and who sends it; the request's ids travel as oslo's context. */
export interface Notification {
  service: 'ironic-api' | 'ironic-conductor';
  object: string;
  action: string;
  status: NotificationStatus;
  level: NotificationLevel;
  payloadName: PayloadName;
  source: object;
  extra?: Readonly<Record<string, unknown>>;
  requestId?: string | null;
}

interface Driver {
  send(message: NotificationMessage, context: Record<string, unknown>): void;
  close(): Promise<void>;
}

interface Settings {
  threshold: number;
  host: string;
  drivers: Driver[];
}

let settings: Settings | null = null;

class LogDriver implements Driver {
  send(message: NotificationMessage): void {
    // oslo.messaging's log driver: the message as JSON at the notification's priority.
    const line = JSON.stringify(message);
    const priority = message.priority.toLowerCase();
    if (priority === 'error' || priority === 'critical') log.error(line);
    else if (priority === 'warning' || priority === 'warn') log.warning(line);
    else log.info(line);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function makeDrivers(conf: Config): Driver[] {
  const names = (conf.raw('oslo_messaging_notifications', 'driver') as string[] | null) ?? [];
  const drivers: Driver[] = [];
  for (const name of names) {
    if (name === 'messagingv2' || name === 'messaging') {
      drivers.push(new AmqpNotificationTransport(conf, name === 'messagingv2' ? 2 : 1));
    } else if (name === 'log') {
      drivers.push(new LogDriver());
    } else if (name !== 'noop') {
      log.warning(`Notification driver ${name} is not supported by ironic-ts; its notifications are not sent`);
    }
  }
  return drivers;
}

/** Sets the notifier up from the configuration (once per process, at start-up). */
export function configureNotifications(conf: Config): void {
  const level = conf.optStr('DEFAULT', 'notification_level');
  if (level === null) {
    settings = null;
    return;
  }
  const drivers = makeDrivers(conf);
  settings = drivers.length === 0 ? null
    : { threshold: LEVELS.indexOf(level as NotificationLevel), host: conf.str('DEFAULT', 'host'), drivers };
}

export async function closeNotifications(): Promise<void> {
  const current = settings;
  settings = null;
  if (current) for (const driver of current.drivers) await driver.close();
}

/** Whether a notification at `level` would be sent: callers skip building payloads otherwise. */
export function notificationsEnabled(level: NotificationLevel = 'debug'): boolean {
  return settings !== null && LEVELS.indexOf(level) >= settings.threshold;
}

/** NotificationBase.emit: filtered by level, built, handed to every driver. Never throws. */
export function emitNotification(n: Notification): void {
  const current = settings;
  if (current === null || LEVELS.indexOf(n.level) < current.threshold) return;
  const eventType = `baremetal.${n.object}.${n.action}.${n.status}`;
  try {
    const message: NotificationMessage = {
      message_id: randomUUID(),
      publisher_id: `${n.service}.${current.host}`,
      event_type: eventType,
      priority: n.level.toUpperCase(),
      payload: buildPayload(n.payloadName, n.source, n.extra),
      timestamp: pythonUtcNow(),
    };
    const context = { request_id: n.requestId ?? null, global_request_id: null };
    for (const driver of current.drivers) driver.send(message, context);
  } catch (err) {
    log.warning(`Failed to send ${eventType} notification: ${(err as Error).message}`);
  }
}
