import { z } from 'zod';
import { component, doc } from '../schema-annotations';
import { Pagination, Uuid } from './common';
import { ListMessagesQuery, Message } from './message';
import { MessageRouting } from './routing-trace';

/** `GET /admin/v1/messages` query: the customer list's filters, across customers or for one. */
export const AdminListMessagesQuery = ListMessagesQuery.extend({
  customerId: doc(Uuid.optional(), {
    description: "Only this customer's messages; without it, every customer's.",
    example: '0193a8f2-6c1d-7e4a-b5f6-0a1b2c3d4e5f',
  }),
}).strict();
/** `GET /admin/v1/messages` query. */
export type AdminListMessagesQuery = z.infer<typeof AdminListMessagesQuery>;

/** A message as the operator sees it: the customer's `Message` and whose it is. */
export const AdminMessage = component(
  'AdminMessage',
  Message.extend({
    customerId: Uuid,
  }),
  { description: 'A message of any customer, with its `customerId`.' },
);
/** A message as the operator sees it. */
export type AdminMessage = z.infer<typeof AdminMessage>;

/** A page of messages across customers. */
export const AdminMessageList = component(
  'AdminMessageList',
  z.object({ messages: z.array(AdminMessage), pagination: Pagination }),
  { description: 'A page of messages across customers, newest first.' },
);
/** A page of messages across customers. */
export type AdminMessageList = z.infer<typeof AdminMessageList>;

/** `GET /admin/v1/messages/{id}`: a message of any customer, its customer and its routing trace. */
export const AdminMessageDetail = component(
  'AdminMessageDetail',
  AdminMessage.extend({
    routing: doc(MessageRouting, {
      description: 'Its routing trace, as `GET /v1/messages/{id}/routing` answers it.',
    }),
  }),
  { description: 'A message of any customer, with its `customerId` and its routing trace.' },
);
/** A message of any customer with its routing trace. */
export type AdminMessageDetail = z.infer<typeof AdminMessageDetail>;
