/**
 * Ironic's exception.ClientSideError: a message with an explicit status (400 unless told), used by
 * the node controllers where Ironic raises it rather than a named exception.
 */
import { IronicError } from '../../common/errors';

export class ClientSideError extends IronicError {
  override readonly kind = 'ClientSideError';
  override readonly code: number;
  constructor(message: string, code = 400) {
    super(message);
    this.code = code;
    this.name = 'ClientSideError';
  }
}
