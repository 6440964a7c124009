import { z } from 'zod';
import { c } from '../contract-builder';
import type { RouteMetadata } from '../route-metadata';
import {
  ApiKey,
  ApiKeyIdParams,
  AssignedNumber,
  AssignNumberRequest,
  CreateApiKeyRequest,
  CreateCustomerRequest,
  CreatedApiKey,
  Customer,
  CustomerDeleted,
  CustomerIdParams,
  CustomerNumberParams,
  NumberRemoved,
} from '../schemas/admin';
import {
  AdminListMessagesQuery,
  AdminMessageDetail,
  AdminMessageList,
} from '../schemas/admin-messages';
import { OperatorStats, OperatorStatsQuery } from '../schemas/admin-stats';
import { envelope, errors } from '../schemas/common';
import {
  AdminEraseContactRequest,
  ContactErasure,
  CustomerRetention,
  ListContactErasuresQuery,
  UpdateRetentionRequest,
} from '../schemas/contact-erasure';
import {
  CreateInstanceRequest,
  DeleteInstanceQuery,
  Instance,
  InstanceDeleted,
  InstanceIdParams,
  UpdateInstanceRequest,
} from '../schemas/instance';
import { MessagePathParams } from '../schemas/message';
import { MessageEventList, MessageEventsQuery } from '../schemas/message-events';
import { ListOptOutsQuery, OptOutList } from '../schemas/opt-out';
import {
  InstanceSendPolicy,
  NumberSendPolicy,
  ResumeSendsQuery,
  SendPolicySettings,
} from '../schemas/send-policy';
import {
  DiscardUnroutedInboundRequest,
  ListUnroutedInboundQuery,
  UnroutedInboundDiscarded,
  UnroutedInboundIdParams,
  UnroutedInboundItemDiscarded,
  UnroutedInboundList,
} from '../schemas/unrouted-inbound';

const admin = { tag: 'Admin', auth: 'admin', rateLimited: false } satisfies RouteMetadata;

const OPERATOR_NOTE =
  'Operator route: authorized by `Authorization: Bearer <SWITCHBOARD_ADMIN_TOKEN>`; the whole `/admin` tree answers 404 when that variable is unset.';

/**
 * The operator API under `/admin/v1`: customers, their API keys, provider instances and sender
 * numbers. Authorized by the operator token, not by customer API keys.
 */
export const adminContract = c.router(
  {
    createCustomer: {
      method: 'POST',
      path: '/admin/v1/customers',
      summary: 'Create a customer',
      description: `Creates a customer account, the tenant of API keys, messages, webhooks and numbers. ${OPERATOR_NOTE}`,
      body: CreateCustomerRequest,
      responses: { 201: envelope(Customer), ...errors('VALIDATION_ERROR') },
      metadata: admin,
    },
    listCustomers: {
      method: 'GET',
      path: '/admin/v1/customers',
      summary: 'List customers',
      description: `Lists every customer that is not deleted, oldest first. ${OPERATOR_NOTE}`,
      responses: { 200: envelope(z.array(Customer)) },
      metadata: admin,
    },
    deleteCustomer: {
      method: 'DELETE',
      path: '/admin/v1/customers/:id',
      summary: 'Delete a customer',
      description: `Deletes a customer: its API keys answer 403 \`FORBIDDEN\` from then on and its sender numbers are released. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      body: c.noBody(),
      responses: {
        200: envelope(CustomerDeleted),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    createApiKey: {
      method: 'POST',
      path: '/admin/v1/customers/:id/api-keys',
      summary: 'Create an API key',
      description: `Issues an API key for the customer. The plaintext \`key\` is in this answer only; the server keeps its SHA-256 hash. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      body: CreateApiKeyRequest.optional(),
      responses: {
        201: envelope(CreatedApiKey),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    listApiKeys: {
      method: 'GET',
      path: '/admin/v1/customers/:id/api-keys',
      summary: "List a customer's API keys",
      description: `Lists the customer's keys, revoked ones included, oldest first; never their plaintext. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      responses: {
        200: envelope(z.array(ApiKey)),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    revokeApiKey: {
      method: 'DELETE',
      path: '/admin/v1/api-keys/:id',
      summary: 'Revoke an API key',
      description: `Revokes the key at once: it answers 401 \`UNAUTHORIZED\` from the next request on. Revoking a revoked key returns it unchanged. ${OPERATOR_NOTE}`,
      pathParams: ApiKeyIdParams,
      body: c.noBody(),
      responses: {
        200: envelope(ApiKey),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    createInstance: {
      method: 'POST',
      path: '/admin/v1/instances',
      summary: 'Create a provider instance',
      description: `Registers a provider instance (an upstream that sends and receives on some channels) and starts it. Its \`config\` is validated against the provider's schema; secrets in it are stored encrypted and answered masked. The answer's \`ingressUrl\` is where the upstream posts its webhooks. ${OPERATOR_NOTE}`,
      body: CreateInstanceRequest,
      responses: {
        201: envelope(Instance),
        ...errors('VALIDATION_ERROR', 'ALREADY_EXISTS'),
      },
      metadata: admin,
    },
    getInstance: {
      method: 'GET',
      path: '/admin/v1/instances/:id',
      summary: 'Get a provider instance',
      description: `One instance, secrets masked. ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      responses: {
        200: envelope(Instance),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    updateInstance: {
      method: 'PATCH',
      path: '/admin/v1/instances/:id',
      summary: 'Update a provider instance',
      description: `Renames, re-channels, reconfigures (a partial \`config\`, merged and validated whole), disables or enables an instance. A change of config, channels or \`enabled\` restarts that instance alone, live. ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      body: UpdateInstanceRequest,
      responses: {
        200: envelope(Instance),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'ALREADY_EXISTS'),
      },
      metadata: admin,
    },
    rotateInstanceIngressToken: {
      method: 'POST',
      path: '/admin/v1/instances/:id/rotate-ingress-token',
      summary: "Rotate an instance's ingress token",
      description: `Issues a new ingress token: the old \`ingressUrl\` answers 404 from now on, and the instance restarts with the new one (adapters that register their webhook upstream do so again). ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      body: c.noBody(),
      responses: {
        200: envelope(Instance),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    deleteInstance: {
      method: 'DELETE',
      path: '/admin/v1/instances/:id',
      summary: 'Delete a provider instance',
      description: `Stops the instance, wipes its secrets and provider state (WhatsApp credentials) and removes it from lists; its messages stay readable. Refused with 409 \`INSTANCE_IN_USE\` while sender numbers use it, unless \`force=true\`, which withdraws them. ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      query: DeleteInstanceQuery,
      body: c.noBody(),
      responses: {
        200: envelope(InstanceDeleted),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND', 'INSTANCE_IN_USE'),
      },
      metadata: admin,
    },
    getInstanceSendPolicy: {
      method: 'GET',
      path: '/admin/v1/instances/:id/send-policy',
      summary: "Get an instance's send policy",
      description: `The send policy the instance's numbers inherit, and the built-in defaults per channel. ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      responses: {
        200: envelope(InstanceSendPolicy),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    putInstanceSendPolicy: {
      method: 'PUT',
      path: '/admin/v1/instances/:id/send-policy',
      summary: "Set an instance's send policy",
      description: `Replaces the send policy the instance's numbers inherit where their own leaves a field out. An \`inUseSince\` after today answers 400 \`VALIDATION_ERROR\`. ${OPERATOR_NOTE}`,
      pathParams: InstanceIdParams,
      body: SendPolicySettings,
      responses: {
        200: envelope(InstanceSendPolicy),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    listInstances: {
      method: 'GET',
      path: '/admin/v1/instances',
      summary: 'List provider instances',
      description: `Lists every provider instance, oldest first. ${OPERATOR_NOTE}`,
      responses: { 200: envelope(z.array(Instance)) },
      metadata: admin,
    },
    assignNumber: {
      method: 'POST',
      path: '/admin/v1/customers/:id/numbers',
      summary: 'Assign a sender number',
      description: `Authorizes a sender address for the customer, served by an instance. A number (and an e-mail address) belongs to one customer at a time. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      body: AssignNumberRequest,
      responses: {
        201: envelope(AssignedNumber),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND', 'ALREADY_EXISTS'),
      },
      metadata: admin,
    },
    listCustomerNumbers: {
      method: 'GET',
      path: '/admin/v1/customers/:id/numbers',
      summary: "List a customer's sender numbers",
      description: `Lists the sender addresses authorized for the customer, the default first. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      responses: {
        200: envelope(z.array(AssignedNumber)),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    removeNumber: {
      method: 'DELETE',
      path: '/admin/v1/customers/:id/numbers/:phoneNumber',
      summary: 'Remove a sender number',
      description: `Withdraws the sender address from the customer. The number is accepted with or without its leading \`+\`. ${OPERATOR_NOTE}`,
      pathParams: CustomerNumberParams,
      body: c.noBody(),
      responses: {
        200: envelope(NumberRemoved),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    getNumberSendPolicy: {
      method: 'GET',
      path: '/admin/v1/customers/:id/numbers/:phoneNumber/send-policy',
      summary: "Get a number's send policy",
      description: `The number's own send policy, its instance's, and per channel what holds today with today's counts and any WhatsApp restriction. See docs/providers/keeping-numbers-healthy.md. ${OPERATOR_NOTE}`,
      pathParams: CustomerNumberParams,
      responses: {
        200: envelope(NumberSendPolicy),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    putNumberSendPolicy: {
      method: 'PUT',
      path: '/admin/v1/customers/:id/numbers/:phoneNumber/send-policy',
      summary: "Set a number's send policy",
      description: `Replaces the number's own send policy (daily cap, cold-contact cap, warm-up ramp per channel; the day it has been in use since; the "already warm" override, logged). Fields left out inherit from the instance, then the channel's default. An \`inUseSince\` after today answers 400 \`VALIDATION_ERROR\`. ${OPERATOR_NOTE}`,
      pathParams: CustomerNumberParams,
      body: SendPolicySettings,
      responses: {
        200: envelope(NumberSendPolicy),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    resumeNumberSends: {
      method: 'POST',
      path: '/admin/v1/customers/:id/numbers/:phoneNumber/send-policy/resume',
      summary: "Resume a number's paused sends",
      description: `Ends the delivery watchdog's pause of the number's sends (on \`channel\`, else on every paused channel): its held messages leave at their next look at the policy (\`SEND_POLICY_RECHECK_MS\`), and the watchdog pauses it again only on evidence from sends after the resume. Idempotent: a number not paused answers 200 with its policy unchanged. See docs/providers/keeping-numbers-healthy.md. ${OPERATOR_NOTE}`,
      pathParams: CustomerNumberParams,
      query: ResumeSendsQuery,
      body: c.noBody(),
      responses: {
        200: envelope(NumberSendPolicy),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    listCustomerOptOuts: {
      method: 'GET',
      path: '/admin/v1/customers/:id/opt-outs',
      summary: "List a customer's opt-outs",
      description: `The customer's opt-out ledger, as \`GET /v1/opt-outs\` answers it to the customer. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      query: ListOptOutsQuery,
      responses: {
        200: envelope(OptOutList),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    listMessages: {
      method: 'GET',
      path: '/admin/v1/messages',
      summary: 'List messages across customers',
      description: `Every customer's messages (or one's, with \`customerId\`), newest first, with the filters and cursor pagination of \`GET /v1/messages\`; each carries its \`customerId\`. Deleted messages and suppressed verification codes are never listed. ${OPERATOR_NOTE}`,
      query: AdminListMessagesQuery,
      responses: {
        200: envelope(AdminMessageList),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'INVALID_RECIPIENT'),
      },
      metadata: admin,
    },
    getMessage: {
      method: 'GET',
      path: '/admin/v1/messages/:id',
      summary: 'Get a message of any customer',
      description: `The message as its customer's \`GET /v1/messages/{id}\` answers it, with its \`customerId\` and its routing trace (\`GET /v1/messages/{id}/routing\`). An unknown or deleted message answers \`NOT_FOUND\`. ${OPERATOR_NOTE}`,
      pathParams: MessagePathParams,
      responses: { 200: envelope(AdminMessageDetail), ...errors('NOT_FOUND') },
      metadata: admin,
    },
    listMessageEvents: {
      method: 'GET',
      path: '/admin/v1/messages/:id/events',
      summary: "List a message's events and their deliveries",
      description: `The events a message of any customer emitted, oldest first, each with every attempt to deliver it, as its customer's \`GET /v1/messages/{id}/events\` answers them. An unknown or deleted message answers \`NOT_FOUND\`. ${OPERATOR_NOTE}`,
      pathParams: MessagePathParams,
      query: MessageEventsQuery,
      responses: {
        200: envelope(MessageEventList),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    getStats: {
      method: 'GET',
      path: '/admin/v1/stats',
      summary: 'Traffic over a recent window',
      description: `Counted from the database for every customer: outbound messages accepted in the window by their status now (sent, delivered, failed), how many fell back to another channel, and the webhook delivery attempts that failed. ${OPERATOR_NOTE}`,
      query: OperatorStatsQuery,
      responses: { 200: envelope(OperatorStats), ...errors('VALIDATION_ERROR') },
      metadata: admin,
    },
    listUnroutedInbound: {
      method: 'GET',
      path: '/admin/v1/unrouted-inbound',
      summary: 'List kept inbound items no customer could receive',
      description: `Inbound messages, reactions and events an upstream handed the gateway for an address no customer has on the receiving instance, oldest first. They are kept until the address is assigned on that instance (then delivered to that customer, in order), discarded, or \`UNROUTED_INBOUND_RETENTION_MS\` ends. ${OPERATOR_NOTE}`,
      query: ListUnroutedInboundQuery,
      responses: { 200: envelope(UnroutedInboundList), ...errors('VALIDATION_ERROR') },
      metadata: admin,
    },
    discardUnroutedInboundItem: {
      method: 'DELETE',
      path: '/admin/v1/unrouted-inbound/:id',
      summary: 'Discard a kept inbound item',
      description: `Forgets one kept inbound item without delivering it. ${OPERATOR_NOTE}`,
      pathParams: UnroutedInboundIdParams,
      body: c.noBody(),
      responses: {
        200: envelope(UnroutedInboundItemDiscarded),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    discardUnroutedInbound: {
      method: 'POST',
      path: '/admin/v1/unrouted-inbound/discard',
      summary: 'Discard the kept inbound items of an address or instance',
      description: `Forgets, without delivering them, every kept inbound item to \`address\`, of \`instanceId\`, or both. ${OPERATOR_NOTE}`,
      body: DiscardUnroutedInboundRequest,
      responses: { 200: envelope(UnroutedInboundDiscarded), ...errors('VALIDATION_ERROR') },
      metadata: admin,
    },
    eraseContact: {
      method: 'POST',
      path: '/admin/v1/contact-erasures',
      summary: 'Forget a contact',
      description: `Erases everything held about one address, as \`POST /v1/contact-erasures\` does for a customer: for one customer with \`customerId\`, otherwise across every customer and the kept unrouted inbound items. The opt-out ledger keeps the fact that it opted out. ${OPERATOR_NOTE}`,
      body: AdminEraseContactRequest,
      responses: {
        201: envelope(ContactErasure),
        ...errors('VALIDATION_ERROR', 'INVALID_PHONE_NUMBER', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    listContactErasures: {
      method: 'GET',
      path: '/admin/v1/contact-erasures',
      summary: 'List contact erasures',
      description: `Erasures newest first (the last 100): one customer's with \`customerId\` (its own and the operator's for it), otherwise the operator's erasures across customers. ${OPERATOR_NOTE}`,
      query: ListContactErasuresQuery,
      responses: { 200: envelope(z.array(ContactErasure)), ...errors('VALIDATION_ERROR') },
      metadata: admin,
    },
    getCustomerRetention: {
      method: 'GET',
      path: '/admin/v1/customers/:id/retention',
      summary: "Get a customer's retention",
      description: `The deployment's retention periods, the customer's overrides and what applies. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      responses: {
        200: envelope(CustomerRetention),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
    updateCustomerRetention: {
      method: 'PUT',
      path: '/admin/v1/customers/:id/retention',
      summary: "Set a customer's retention",
      description: `Sets the customer's own periods (days; null: the deployment's). A period is at most the deployment's: a longer one answers 400 \`VALIDATION_ERROR\` (a customer may keep less, never more than the operator provisioned for). Fields left out keep their value. ${OPERATOR_NOTE}`,
      pathParams: CustomerIdParams,
      body: UpdateRetentionRequest,
      responses: {
        200: envelope(CustomerRetention),
        ...errors('VALIDATION_ERROR', 'NOT_FOUND'),
      },
      metadata: admin,
    },
  },
  { commonResponses: errors('UNAUTHORIZED', 'INTERNAL_ERROR') },
);
