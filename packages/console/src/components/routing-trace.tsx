import type { MessageRouting, RoutingStep } from '@switchboard/contract';
import { useLoad } from '../use-load';
import { StatusView } from './status-view';

/** How long ago, in words, `ms` milliseconds were. */
function ageOf(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** One step as a sentence: what was decided for which channel, and why. */
function StepStory({ step }: { step: RoutingStep }) {
  const where = [step.channel ?? 'no channel', step.instanceId ? `instance ${step.instanceId}` : '']
    .filter(Boolean)
    .join(' on ');
  return (
    <li>
      <p>
        <strong>
          {step.decision} · {where}
        </strong>{' '}
        <span class="muted">
          ({step.reason}
          {step.attempt > 0 ? `, retry ${step.attempt}` : ''},{' '}
          <time dateTime={step.at}>{step.at}</time>)
        </span>
      </p>
      <p>{step.detail}</p>
      {step.capability && (
        <p>
          Capability from {step.capability.source}, {ageOf(step.capability.ageMs)} old: reachable{' '}
          {step.capability.reachable === null
            ? 'unknown'
            : step.capability.reachable
              ? 'yes'
              : 'no'}
        </p>
      )}
      {step.code && <p>Code: {step.code}</p>}
      {step.waitMs !== null && <p>Waited {ageOf(step.waitMs)}</p>}
      {step.externalId && <p>Upstream id: {step.externalId}</p>}
    </li>
  );
}

/**
 * The routing trace of a message, as a story: every channel and instance considered or tried, in
 * order, with the decision and its reason (`GET /v1/messages/{id}/routing`, or the operator's
 * message, which carries it).
 */
export function RoutingTrace({
  load,
  deps,
}: {
  load: () => Promise<MessageRouting>;
  deps: readonly unknown[];
}) {
  const trace = useLoad(load, deps);
  return (
    <section aria-labelledby="routing-title">
      <h2 id="routing-title">Routing trace</h2>
      <StatusView loaded={trace}>
        {(routing) =>
          routing.steps.length === 0 ? (
            <p>No routing step: an inbound message, or a send not routed yet.</p>
          ) : (
            <ol aria-label="Routing steps" class="story">
              {routing.steps.map((step) => (
                <StepStory key={step.sequence} step={step} />
              ))}
            </ol>
          )
        }
      </StatusView>
    </section>
  );
}
