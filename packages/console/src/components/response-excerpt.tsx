/** Characters of a receiver's answer shown in a table cell; the rest is in its tooltip. */
const SHOWN_CHARS = 80;

/**
 * The start of a receiver's response body in a delivery log's cell, as text: its first
 * {@link SHOWN_CHARS} characters, the whole excerpt the API kept in the tooltip; nothing when the
 * receiver said nothing.
 */
export function ResponseExcerpt({ body }: { body: string | null }) {
  if (body === null) return null;
  const shown = body.length > SHOWN_CHARS ? `${body.slice(0, SHOWN_CHARS)}…` : body;
  return (
    <code class="response" title={body}>
      {shown}
    </code>
  );
}
