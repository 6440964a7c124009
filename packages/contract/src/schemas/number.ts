import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { HealthStatus, PhoneNumber } from './common';

/** A sender address of the customer: usable as `from`. */
export const SenderNumber = component(
  'SenderNumber',
  z.object({
    phoneNumber: PhoneNumber,
    email: doc(z.string().nullable(), {
      description: 'E-mail style sender address of the instance (imessage), if it has one.',
      example: 'orders@example.com',
    }),
    instanceName: doc(z.string(), {
      description: 'Friendly name of the sending instance.',
      example: 'Store Mac mini',
    }),
    isDefault: doc(z.boolean(), { description: 'The sender used when a send omits `from`.' }),
    // A fresh enum: doc() annotates a schema in place, and HealthStatus is shared.
    healthStatus: doc(z.enum(HealthStatus.options), {
      description: 'Health of the instance, checked every 2 minutes.',
    }),
  }),
  {
    description:
      'A sender address of the customer; `phoneNumber` and `email` are usable as `from`.',
    example: {
      phoneNumber: '+14155550199',
      email: 'orders@example.com',
      instanceName: 'Store Mac mini',
      isDefault: true,
      healthStatus: 'healthy',
    },
  },
);
/** A sender address of the customer. */
export type SenderNumber = z.infer<typeof SenderNumber>;
