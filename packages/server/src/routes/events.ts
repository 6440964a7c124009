import type { OutgoingHttpHeaders } from 'node:http';
import { type contract, EventStreamQuery } from '@switchboard/contract';
import type { RouterImplementation } from '@ts-rest/fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { domainErrorFromIssues } from '../domain/zod-issues';
import { customerOf } from '../http/authentication';
import type { Services } from '../wiring/services';

/**
 * `GET /v1/events`, the Server-Sent Events stream. The stream is opened in a `preHandler` hook
 * that hijacks the reply, so Fastify never calls the route handler nor tries to send a body of
 * its own; the hijacked response gets the request and correlation id headers (and the rate-limit
 * headers) itself, and `app.ts` ends the streams on `preClose`.
 */
export function eventsRoutes(services: Services): RouterImplementation<typeof contract.events> {
  const openStream = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = EventStreamQuery.safeParse(request.query);
    if (!query.success) {
      throw domainErrorFromIssues(query.error.issues.map((issue) => ({ part: 'query', issue })));
    }
    // Headers set so far (rate limits) are Fastify's to send, which a hijacked reply never does.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
    }
    headers['x-request-id'] = request.id;
    headers['x-correlation-id'] = request.correlationId;
    const customerId = customerOf(request).id;
    const lastEventId = request.headers['last-event-id'];
    const resumeFrom =
      typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : undefined;
    reply.hijack();
    const stream = services.eventStreams.open(reply.raw, {
      customerId,
      filter: query.data.events,
      headers,
      hold: resumeFrom !== undefined,
    });
    if (resumeFrom !== undefined) {
      try {
        stream.resume(await services.streamReplay.after(customerId, resumeFrom));
      } catch (error) {
        // The replay could not be read: the client reconnects and asks again.
        request.log.error({ err: error }, 'event stream replay failed');
        reply.raw.destroy();
      }
    }
  };
  return {
    stream: {
      hooks: { preHandler: openStream },
      handler: async () => {
        throw new Error('GET /v1/events is answered by its preHandler hook');
      },
    },
  };
}
