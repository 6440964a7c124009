import type { Transport } from './request';

/** The base of every resource class: holds the client's transport. */
export abstract class APIResource {
  /** The transport of the client this resource belongs to. */
  protected readonly _transport: Transport;

  constructor(transport: Transport) {
    this._transport = transport;
  }
}
