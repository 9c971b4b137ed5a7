/**
 * A growing byte buffer that response writers append ASCII JSON text to.
 *
 * Large list bodies are tens of thousands of short fragments (keys, quotes, column values). Joining
 * them as strings cost more than building them; copying each into one buffer leaves a body that
 * is sent as is. Callers must only append ASCII (jsonString and asciiJson escape everything else).
 */

/** Below this length a JS loop beats the call into latin1Write. */
const SHORT = 48;

export class JsonSink {
  private buf: Buffer;
  private pos = 0;

  constructor(initialSize = 64 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(initialSize);
  }

  private grow(need: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + need) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  add(text: string): void {
    const n = text.length;
    if (this.pos + n > this.buf.length) this.grow(n);
    if (n > SHORT) {
      this.pos += this.buf.write(text, this.pos, 'latin1');
      return;
    }
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
