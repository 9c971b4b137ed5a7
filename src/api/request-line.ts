/**
 * Oversized requests answered as Ironic's WSGI server (eventlet) answers them: a request line of
 * MAX_REQUEST_LINE bytes or more is a 414 with an empty body, before any of Ironic's own code runs.
 * Node's parser caps the request line and headers together (16 KiB) and would answer 431 for a
 * long URL too, so its parse errors are answered here, telling the two apart.
 */
import type * as http from 'node:http';
import type { Duplex } from 'node:stream';

/** eventlet.wsgi.MAX_REQUEST_LINE: the limit includes the line's CRLF. */
const MAX_REQUEST_LINE = 8192;

function rawResponse(status: string): string {
  return `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
}

const URI_TOO_LONG = rawResponse('414 Request-URI Too Long');
const HEADERS_TOO_LARGE = rawResponse('431 Request Header Fields Too Large');
const TIMEOUT = rawResponse('408 Request Timeout');
const BAD_REQUEST = rawResponse('400 Bad Request');

function requestLineBytes(req: http.IncomingMessage): number {
  return Buffer.byteLength(`${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`, 'latin1');
}

/** Koa's callback: it answers its own errors, so the promise it returns is not awaited. */
type AppHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Wraps the app's handler: a long request line never reaches routing or version negotiation. */
export function limitRequestLine(handler: AppHandler): http.RequestListener {
  return (req, res) => {
    if (requestLineBytes(req) < MAX_REQUEST_LINE) {
      void handler(req, res);
      return;
    }
    res.shouldKeepAlive = false;
    res.writeHead(414, { 'Content-Length': '0', Connection: 'close' });
    res.end();
  };
}

interface ParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/** The bytes buffered when the parser gave up: a request line without its CRLF yet is the URL's fault. */
function overflowResponse(err: ParseError): string {
  const lineEnd = err.rawPacket?.indexOf('\r\n') ?? -1;
  return lineEnd === -1 || lineEnd + 2 >= MAX_REQUEST_LINE ? URI_TOO_LONG : HEADERS_TOO_LARGE;
}

/**
 * A keep-alive socket has written earlier responses; only one still being written (Node's
 * `_httpMessage` until it finishes) must not be interleaved with the error answer.
 */
function responseInFlight(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: unknown })._httpMessage != null;
}

/** How long a refused client may go on sending before its socket is destroyed. */
const LINGER_MS = 2000;

function answerFor(err: ParseError): string | null {
  if (err.code === 'ECONNRESET') return null;
  if (err.code === 'HPE_HEADER_OVERFLOW') return overflowResponse(err);
  return err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? TIMEOUT : BAD_REQUEST;
}

/**
 * Node's own clientError answers, with HPE_HEADER_OVERFLOW split into 414 and 431. The client is
 * usually still sending its oversized request: its bytes are drained for a moment after the answer,
 * since closing with unread data resets the connection before the client reads the status.
 */
export function answerParseErrors(server: http.Server): void {
  server.on('clientError', (err: ParseError, socket: Duplex) => {
    const answer = answerFor(err);
    if (answer === null || !socket.writable || responseInFlight(socket)) {
      socket.destroy(err);
      return;
    }
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
    socket.end(answer);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
