import { describe, expect, it } from 'vitest';
import { InvalidEventError, serializeEvent } from './event-payload';

const AT = new Date('2026-01-15T12:00:00.000Z');

describe('serializeEvent (outside production)', () => {
  it('sends the body as built when it is exactly the contract’s, in the contract’s key order', () => {
    const bytes = serializeEvent(
      {
        customerId: 'c1',
        type: 'whatsapp.status',
        correlationId: '',
        data: { phoneNumber: '+14155550100', status: 'connecting', customerId: 'c1' },
      },
      'evt_1',
      AT,
    );
    expect(bytes).toBe(
      '{"id":"evt_1","type":"whatsapp.status","timestamp":"2026-01-15T12:00:00.000Z","data":{"phoneNumber":"+14155550100","status":"connecting","customerId":"c1"}}',
    );
  });

  it('refuses a body whose keys are out of the contract’s order, or that the contract refuses', () => {
    const misordered = () =>
      serializeEvent(
        {
          customerId: 'c1',
          type: 'whatsapp.status',
          correlationId: '',
          data: { customerId: 'c1', phoneNumber: '+14155550100', status: 'connecting' },
        },
        'evt_1',
        AT,
      );
    expect(misordered).toThrow(InvalidEventError);
    expect(misordered).toThrow(/not built in the contract's shape/);
    const invalid = () =>
      serializeEvent(
        {
          customerId: 'c1',
          type: 'whatsapp.status',
          correlationId: '',
          data: { phoneNumber: '+14155550100', status: 'sleeping', customerId: 'c1' },
        } as never,
        'evt_1',
        AT,
      );
    expect(invalid).toThrow(/refusing to emit a malformed whatsapp.status event/);
  });
});
