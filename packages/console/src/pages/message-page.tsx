import { customerClient } from '../clients';
import { ActionButton } from '../components/action-button';
import { RoutingTrace } from '../components/routing-trace';
import { StatusView } from '../components/status-view';
import { hrefOf } from '../route';
import { useLoad } from '../use-load';

/** One message: its content, status, timeline; retry it when failed, cancel it when scheduled. */
export function MessagePage({ token, id }: { token: string; id: string }) {
  const client = customerClient(token);
  const message = useLoad(() => client.messages.get(id), [token, id]);
  return (
    <>
      <p>
        <a href={hrefOf('messages')}>← Messages</a>
      </p>
      <h1>Message {id}</h1>
      <StatusView loaded={message}>
        {(shown) => (
          <>
            <dl class="checks">
              <dt>Status</dt>
              <dd>{shown.status}</dd>
              <dt>Direction</dt>
              <dd>{shown.direction}</dd>
              <dt>From</dt>
              <dd>{shown.from}</dd>
              <dt>To</dt>
              <dd>{shown.to ?? ''}</dd>
              <dt>Channel</dt>
              <dd>{shown.channel ?? 'not yet chosen'}</dd>
              <dt>Fallback</dt>
              <dd>{shown.fallbackTriggered ? 'yes' : 'no'}</dd>
              {shown.errorCode && (
                <>
                  <dt>Error</dt>
                  <dd>
                    {shown.errorCode}: {shown.errorMessage ?? ''}
                  </dd>
                </>
              )}
            </dl>
            <h2>Content</h2>
            <p class="text">{shown.content.text}</p>
            <h2>Timeline</h2>
            <ol aria-label="Timeline">
              {shown.timeline.map((step) => (
                <li key={`${step.status}-${step.at}`}>
                  <time dateTime={step.at}>{step.at}</time> {step.status}
                  {step.channel ? ` on ${step.channel}` : ''}
                </li>
              ))}
            </ol>
            <RoutingTrace token={token} id={id} />
            {shown.status === 'failed' && (
              <ActionButton
                label="Retry"
                action={() => client.messages.retry(id)}
                onDone={message.reload}
              />
            )}
            {shown.status === 'scheduled' && (
              <ActionButton
                label="Cancel the schedule"
                action={() => client.messages.cancelSchedule(id)}
                onDone={message.reload}
              />
            )}
          </>
        )}
      </StatusView>
    </>
  );
}
