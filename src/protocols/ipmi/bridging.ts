/**
 * ipmi_bridging as Send Message encapsulation (IPMI 2.0 section 22.7): the request for the target
 * controller is wrapped in a Send Message to the BMC (single), or to a transit controller that
 * forwards it again (dual). BMCs answer in one of two ways, both accepted, as ipmitool does:
 * the target's response embedded in the Send Message response data, or an empty Send Message
 * response followed by a separate packet carrying the target's command and our rqSeq.
 */
import { IpmiConfigError, IpmiProtocolError } from './errors';
import { BMC_SLAVE_ADDR, decodeResponse, encodeRequest, type IpmiRequest, type IpmiResponse, type RequestPlan } from './message';
import type { BridgingOptions } from './types';

const SEND_MESSAGE = 0x34;
const TRACK_REQUEST = 0x40;

function checkByte(name: string, value: number | undefined, max: number): number {
  if (value === undefined || !Number.isInteger(value) || value < 0 || value > max) {
    throw new IpmiConfigError(`bridging ${name} must be an integer 0..${max}`);
  }
  return value;
}

function sendMessage(channel: number, target: number, inner: IpmiRequest, rqSeq: number, requester: number): IpmiRequest {
  const frame = encodeRequest({ ...inner, rsAddr: target }, rqSeq, requester);
  return { netFn: 0x06, cmd: SEND_MESSAGE, data: Buffer.concat([Buffer.from([TRACK_REQUEST | channel]), frame]) };
}

function bridgeRequest(bridging: BridgingOptions, req: IpmiRequest, rqSeq: number): IpmiRequest {
  const targetChannel = checkByte('target channel', bridging.targetChannel, 0x0f);
  const targetAddress = checkByte('target address', bridging.targetAddress, 0xff);
  const local = checkByte('local address', bridging.localAddress ?? BMC_SLAVE_ADDR, 0xff);
  const toTarget = (via: IpmiRequest): IpmiRequest => sendMessage(targetChannel, targetAddress, via, rqSeq, local);
  if (bridging.type === 'single') return toTarget(req);
  const transitChannel = checkByte('transit channel', bridging.transitChannel, 0x0f);
  const transitAddress = checkByte('transit address', bridging.transitAddress, 0xff);
  return sendMessage(transitChannel, transitAddress, toTarget(req), rqSeq, local);
}

/** Peels the Send Message layers off a response, returning the target's own response. */
function unbridgeResponse(bridging: BridgingOptions, rsp: IpmiResponse): IpmiResponse {
  const depth = bridging.type === 'single' ? 1 : 2;
  let current = rsp;
  for (let i = 0; i < depth; i++) {
    if (current.cmd !== SEND_MESSAGE || current.completionCode !== 0) return current;
    if (current.data.length < 8) throw new IpmiProtocolError('bridged response missing from Send Message response');
    current = decodeResponse(current.data);
  }
  return current;
}

export function bridgedPlan(bridging: BridgingOptions, req: IpmiRequest): RequestPlan {
  return {
    wire: (rqSeq) => bridgeRequest(bridging, req, rqSeq),
    answers: (rsp, rqSeq) => {
      if (rsp.rqSeq !== rqSeq) return false;
      if (rsp.cmd === SEND_MESSAGE && rsp.netFn === 0x07) {
        // an empty, successful Send Message response only acknowledges the forwarding
        return rsp.completionCode !== 0 || rsp.data.length > 0;
      }
      return rsp.cmd === req.cmd && rsp.netFn === (req.netFn | 1);
    },
    unwrap: (rsp) => unbridgeResponse(bridging, rsp),
  };
}
