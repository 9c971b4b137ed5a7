/**
 * RMCP framing (DMTF ASF 2.0 section 3.2.2) and the ASF presence ping/pong used to probe a BMC
 * without a session.
 */
import { IpmiProtocolError } from './errors';

const RMCP_VERSION = 0x06;
const RMCP_NO_ACK_SEQ = 0xff;
export const RMCP_CLASS_ASF = 0x06;
export const RMCP_CLASS_IPMI = 0x07;
const ASF_IANA = 4542;
const ASF_PING = 0x80;
const ASF_PONG = 0x40;

export function rmcpHeader(messageClass: number): Buffer {
  return Buffer.from([RMCP_VERSION, 0x00, RMCP_NO_ACK_SEQ, messageClass]);
}

export function rmcpClass(packet: Buffer): number {
  if (packet.length < 4 || packet[0] !== RMCP_VERSION) throw new IpmiProtocolError('not an RMCP packet');
  return packet[3] & 0x1f;
}

export function encodeAsfPing(tag: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeUInt32BE(ASF_IANA, 0);
  body[4] = ASF_PING;
  body[5] = tag & 0xff;
  body[6] = 0;
  body[7] = 0;
  return Buffer.concat([rmcpHeader(RMCP_CLASS_ASF), body]);
}

interface AsfPong {
  tag: number;
  ipmiSupported: boolean;
}

export function decodeAsfPong(packet: Buffer): AsfPong {
  if (rmcpClass(packet) !== RMCP_CLASS_ASF || packet.length < 12) throw new IpmiProtocolError('not an ASF message');
  if (packet.readUInt32BE(4) !== ASF_IANA || packet[8] !== ASF_PONG) throw new IpmiProtocolError('not an ASF pong');
  const tag = packet[9];
  // Supported entities byte sits after 8 bytes of IANA/OEM data in the pong body.
  const entities = packet.length >= 12 + 9 ? packet[12 + 8] : 0;
  return { tag, ipmiSupported: (entities & 0x80) !== 0 };
}

export function isAsfPing(packet: Buffer): boolean {
  return packet.length >= 12 && packet[3] === RMCP_CLASS_ASF && packet.readUInt32BE(4) === ASF_IANA && packet[8] === ASF_PING;
}

export function encodeAsfPong(tag: number): Buffer {
  const body = Buffer.alloc(8 + 16);
  body.writeUInt32BE(ASF_IANA, 0);
  body[4] = ASF_PONG;
  body[5] = tag & 0xff;
  body[6] = 0;
  body[7] = 16;
  body.writeUInt32BE(ASF_IANA, 8);
  body[16] = 0x81; // IPMI supported, ASF 1.0
  return Buffer.concat([rmcpHeader(RMCP_CLASS_ASF), body]);
}
