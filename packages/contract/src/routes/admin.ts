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
import { envelope, errors } from '../schemas/common';
import {
  CreateInstanceRequest,
  DeleteInstanceQuery,
  Instance,
  InstanceDeleted,
  InstanceIdParams,
  UpdateInstanceRequest,
} from '../schemas/instance';
import { ListOptOutsQuery, OptOutList } from '../schemas/opt-out';

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
  },
  { commonResponses: errors('UNAUTHORIZED', 'INTERNAL_ERROR') },
);
