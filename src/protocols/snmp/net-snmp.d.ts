/** The slice of the untyped `net-snmp` package that src/protocols/snmp/client.ts uses. */
declare module 'net-snmp' {
  export interface Varbind {
    oid: string;
    type: number;
    value: unknown;
  }
  export interface SessionOptions {
    port?: number;
    retries?: number;
    timeout?: number;
    version?: number;
    transport?: 'udp4' | 'udp6';
    context?: string;
  }
  export interface V3User {
    name: string;
    level: number;
    authProtocol?: number;
    authKey?: string;
    privProtocol?: number;
    privKey?: string;
  }
  export interface Session {
    get(oids: string[], cb: (error: Error | null, varbinds: Varbind[]) => void): void;
    set(varbinds: Varbind[], cb: (error: Error | null, varbinds: Varbind[]) => void): void;
    close(): void;
    on(event: 'error', listener: (error: Error) => void): void;
  }
  export function createSession(target: string, community: string, options?: SessionOptions): Session;
  export function createV3Session(target: string, user: V3User, options?: SessionOptions): Session;
  export function isVarbindError(varbind: Varbind): boolean;
  export function varbindError(varbind: Varbind): string;
  export const Version1: number;
  export const Version2c: number;
  export const ObjectType: { readonly Integer: number };
  export const SecurityLevel: { readonly noAuthNoPriv: number; readonly authNoPriv: number; readonly authPriv: number };
  export const AuthProtocols: Readonly<Record<string, number>>;
  export const PrivProtocols: Readonly<Record<string, number>>;
  export class RequestTimedOutError extends Error {}
  export class RequestFailedError extends Error {
    status?: number;
  }
}
