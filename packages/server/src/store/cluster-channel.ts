/** A channel every server process of a deployment publishes on and listens to. */
export interface ClusterChannel {
  /** Publishes `payload` to every process listening (this one included). */
  publish(payload: string): Promise<void>;
  /** Starts calling `listener` with each payload published. */
  listen(listener: (payload: string) => void): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}
