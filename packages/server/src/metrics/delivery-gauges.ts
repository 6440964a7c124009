import { Gauge, type Registry } from 'prom-client';

/** One sender number's verdict on one channel, as the delivery watchdog reports it. */
interface NumberVerdict {
  /** The sender number. */
  number: string;
  /** The channel. */
  channel: string;
  /** Sends judged. */
  judged: number;
  /** Share of judged sends not delivered within the window. */
  share: number;
  /** True while the number is stalling. */
  stalling: boolean;
  /** True while the watchdog's automatic pause holds the number's sends on the channel. */
  paused: boolean;
}

/** The verdicts of one instance. */
interface InstanceVerdicts {
  /** The instance's name. */
  instance: string;
  /** Its numbers' verdicts. */
  numbers: NumberVerdict[];
}

/** Where the gauges read the verdicts at scrape time (the delivery watchdog). */
export interface DeliveryVerdicts {
  /** Every instance's verdicts, evaluated now. */
  report(): Promise<InstanceVerdicts[]>;
}

/**
 * The delivery watchdog's gauges, per instance, sender number and channel (bounded: the operator's
 * own sender numbers with sends in the last day or a pause): the share of judged sends not delivered within
 * the window, how many were judged, 1 while the number is stalling, and 1 while its sends are paused. One evaluation per scrape
 * serves the three.
 */
export function registerDeliveryGauges(deliveries: DeliveryVerdicts, registers: Registry[]): void {
  const labelNames = ['instance', 'number', 'channel'] as const;
  let pending: Promise<InstanceVerdicts[]> | undefined;
  // The three gauges collect in one scrape: they share one evaluation.
  const report = () => {
    pending ??= deliveries.report().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  const gauge = (name: string, help: string, value: (h: NumberVerdict) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        this.reset();
        for (const { instance, numbers } of await report()) {
          for (const health of numbers) {
            this.set({ instance, number: health.number, channel: health.channel }, value(health));
          }
        }
      },
    });
  gauge(
    'switchboard_delivery_undelivered_ratio',
    'Delivery watchdog: share of the recent judged sends of a number not delivered within the channel window.',
    (health) => health.share,
  );
  gauge(
    'switchboard_delivery_judged_sends',
    'Delivery watchdog: recent sends of a number judged (delivered, or sent for longer than the window).',
    (health) => health.judged,
  );
  gauge(
    'switchboard_delivery_stalling',
    'Delivery watchdog: 1 while a number is stalling (enough judged sends, share at or above the threshold), else 0.',
    (health) => (health.stalling ? 1 : 0),
  );
  gauge(
    'switchboard_delivery_paused',
    "Delivery watchdog: 1 while the automatic pause holds a number's sends on the channel (until an operator resumes them), else 0.",
    (health) => (health.paused ? 1 : 0),
  );
}
