import type { ScenarioContext } from '../bench-mode';
import { endToEnd } from './end-to-end';
import { eventFanout } from './event-fanout';
import { growth } from './growth';
import { mediaTranscoding } from './media-transcoding';
import { pruning } from './pruning';
import { scaleOut } from './scale-out';
import type { ScenarioOutcome } from './scenario-result';
import { sendAcceptance } from './send-acceptance';
import { startupIdle } from './startup-idle';

/** A scenario of the benchmark. */
export interface Scenario {
  id: string;
  title: string;
  run: (context: ScenarioContext) => Promise<ScenarioOutcome>;
}

/** Every scenario, in the order a run executes them. */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'send-acceptance', title: 'Send acceptance', run: sendAcceptance },
  { id: 'end-to-end', title: 'End to end', run: endToEnd },
  { id: 'scale-out', title: 'Scale-out', run: scaleOut },
  { id: 'event-fanout', title: 'Event stream fan-out', run: eventFanout },
  { id: 'growth', title: 'Growth', run: growth },
  { id: 'startup-idle', title: 'Start-up and idle', run: startupIdle },
  { id: 'media', title: 'Media conversion', run: mediaTranscoding },
  { id: 'pruning', title: 'Retention pruning', run: pruning },
];
