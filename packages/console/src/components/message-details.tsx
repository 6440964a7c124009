import type { Message } from '@switchboard/contract';

/** A message's status, addresses, channel, error, content (as text) and timeline. */
export function MessageDetails({ message }: { message: Message }) {
  return (
    <>
      <dl class="checks">
        <dt>Status</dt>
        <dd>{message.status}</dd>
        <dt>Direction</dt>
        <dd>{message.direction}</dd>
        <dt>From</dt>
        <dd>{message.from}</dd>
        <dt>To</dt>
        <dd>{message.to ?? ''}</dd>
        <dt>Channel</dt>
        <dd>{message.channel ?? 'not yet chosen'}</dd>
        <dt>Fallback</dt>
        <dd>{message.fallbackTriggered ? 'yes' : 'no'}</dd>
        {message.errorCode && (
          <>
            <dt>Error</dt>
            <dd>
              {message.errorCode}: {message.errorMessage ?? ''}
            </dd>
          </>
        )}
      </dl>
      <h2>Content</h2>
      <p class="text">{message.content.text}</p>
      <h2>Timeline</h2>
      <ol aria-label="Timeline">
        {message.timeline.map((step) => (
          <li key={`${step.status}-${step.at}`}>
            <time dateTime={step.at}>{step.at}</time> {step.status}
            {step.channel ? ` on ${step.channel}` : ''}
          </li>
        ))}
      </ol>
    </>
  );
}
