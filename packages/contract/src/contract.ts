import { c } from './contract-builder';
import { adminContract } from './routes/admin';
import { attachmentsContract } from './routes/attachments';
import { callbacksContract } from './routes/callbacks';
import { capabilitiesContract } from './routes/capabilities';
import { chatsContract } from './routes/chats';
import { contactErasuresContract } from './routes/contact-erasures';
import { eventsContract } from './routes/events';
import { healthContract } from './routes/health';
import { messagesContract } from './routes/messages';
import { numbersContract } from './routes/numbers';
import { optOutsContract } from './routes/opt-outs';
import { providersContract } from './routes/providers';
import { sandboxContract } from './routes/sandbox';
import { webhooksContract } from './routes/webhooks';
import { whatsappContract } from './routes/whatsapp';

// Every route answers only the statuses it declares. The option is applied per resource router, not
// by one `c.router` around the whole tree: the type of that single transformed object is too large
// for the compiler to write into a declaration file (TS7056), while each resource's type is not.
const strict = { strictStatusCodes: true } as const;

const messages = c.router(messagesContract, strict);
const chats = c.router(chatsContract, strict);
const capabilities = c.router(capabilitiesContract, strict);
const numbers = c.router(numbersContract, strict);
const optOuts = c.router(optOutsContract, strict);
const contactErasures = c.router(contactErasuresContract, strict);
const webhooks = c.router(webhooksContract, strict);
const callbacks = c.router(callbacksContract, strict);
const whatsapp = c.router(whatsappContract, strict);
const events = c.router(eventsContract, strict);
const attachments = c.router(attachmentsContract, strict);
const health = c.router(healthContract, strict);
const admin = c.router(adminContract, strict);
const sandbox = c.router(sandboxContract, strict);
const providers = c.router(providersContract, strict);

/**
 * The type of the whole API contract, named resource by resource so declaration files refer to
 * each resource's type instead of repeating the whole tree.
 */
export type Contract = {
  messages: typeof messages;
  chats: typeof chats;
  capabilities: typeof capabilities;
  numbers: typeof numbers;
  optOuts: typeof optOuts;
  contactErasures: typeof contactErasures;
  webhooks: typeof webhooks;
  callbacks: typeof callbacks;
  whatsapp: typeof whatsapp;
  events: typeof events;
  attachments: typeof attachments;
  health: typeof health;
  admin: typeof admin;
  sandbox: typeof sandbox;
  providers: typeof providers;
};

/**
 * The whole Switchboard API: every route of the server, the SDK and the OpenAPI file.
 * Route keys are stable: they become SDK method names and OpenAPI operation ids.
 */
export const contract: Contract = {
  messages,
  chats,
  capabilities,
  numbers,
  optOuts,
  contactErasures,
  webhooks,
  callbacks,
  whatsapp,
  events,
  attachments,
  health,
  admin,
  sandbox,
  providers,
};
