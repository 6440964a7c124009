import { describe, expect, it } from 'vitest';
import { ERROR_RESPONSE_CODES } from '../schemas/common';
import { eventsContract } from './events';

describe('the Events route', () => {
  const { stream } = eventsContract;

  it('is GET /v1/events, tagged Events, answering an event stream', () => {
    expect(`${stream.method} ${stream.path}`).toBe('GET /v1/events');
    expect(stream.metadata).toEqual({ tag: 'Events' });
    expect(stream.responses[200]).toMatchObject({ contentType: 'text/event-stream' });
  });

  it('documents VALIDATION_ERROR for a bad filter, beside the common errors', () => {
    expect(ERROR_RESPONSE_CODES.get(stream.responses[400])).toEqual(['VALIDATION_ERROR']);
    expect(ERROR_RESPONSE_CODES.get(stream.responses[401])).toEqual(['UNAUTHORIZED']);
  });

  it('parses its filter into the event types to deliver', () => {
    expect(stream.query.parse({ events: 'message.inbound' })).toEqual({
      events: ['message.inbound'],
    });
  });
});
