import { c } from './contract-builder';
import { adminContract } from './routes/admin';
import { attachmentsContract } from './routes/attachments';
import { capabilitiesContract } from './routes/capabilities';
import { chatsContract } from './routes/chats';
import { eventsContract } from './routes/events';
import { healthContract } from './routes/health';
import { messagesContract } from './routes/messages';
import { numbersContract } from './routes/numbers';
import { webhooksContract } from './routes/webhooks';
import { whatsappContract } from './routes/whatsapp';

/**
 * The whole Switchboard API: every route of the server, the SDK and the OpenAPI file.
 * Route keys are stable: they become SDK method names and OpenAPI operation ids.
 */
export const contract = c.router(
  {
    messages: messagesContract,
    chats: chatsContract,
    capabilities: capabilitiesContract,
    numbers: numbersContract,
    webhooks: webhooksContract,
    whatsapp: whatsappContract,
    events: eventsContract,
    attachments: attachmentsContract,
    health: healthContract,
    admin: adminContract,
  },
  { strictStatusCodes: true },
);

/** The type of the whole API contract. */
export type Contract = typeof contract;
