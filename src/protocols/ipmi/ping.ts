/** RMCP/ASF presence ping: tells whether something answers RMCP at an address, without a session. */
import { decodeAsfPong, encodeAsfPing, rmcpClass, RMCP_CLASS_ASF } from './rmcp';
import { UdpTransport } from './transport';

export interface AsfPingOptions {
  address: string;
  port?: number;
  timeoutMs?: number;
  retries?: number;
}

/** Resolves with whether the responder claims IPMI support; rejects with IpmiTimeoutError. */
export async function asfPing(options: AsfPingOptions): Promise<{ ipmiSupported: boolean }> {
  const transport = new UdpTransport(options.address, options.port ?? 623);
  const tag = Math.floor(Math.random() * 0xfe);
  try {
    return await transport.exchange({
      what: 'ASF presence ping',
      timeoutMs: options.timeoutMs ?? 1000,
      retries: options.retries ?? 2,
      build: () => encodeAsfPing(tag),
      accept: (packet) => {
        if (packet.length < 4 || rmcpClass(packet) !== RMCP_CLASS_ASF) return undefined;
        const pong = decodeAsfPong(packet);
        return pong.tag === tag ? { value: { ipmiSupported: pong.ipmiSupported } } : undefined;
      },
    });
  } finally {
    transport.close();
  }
}
