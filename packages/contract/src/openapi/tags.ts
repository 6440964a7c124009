/** One OpenAPI tag: the group an operation is listed under, with what the group is for. */
export interface OpenApiTag {
  name: string;
  description: string;
}

/**
 * Every tag a route's `metadata.tag` may name, in the order the documentation lists them.
 * The OpenAPI generator refuses a tag missing here, so every group is described.
 */
export const OPENAPI_TAGS: readonly OpenApiTag[] = [
  {
    name: 'Messages',
    description:
      'Send messages over iMessage, SMS/MMS or WhatsApp with automatic fallback, then follow, edit, unsend, retry, react to, schedule and delete them. Inbound messages are listed here too.',
  },
  {
    name: 'Chats',
    description:
      'Group chats and per-chat state: create groups, rename them, add and remove participants, leave, mark read or unread, and show typing.',
  },
  {
    name: 'Capabilities',
    description:
      'Which channels can reach a phone number (iMessage, SMS, FaceTime), with the recommended channel. Results are cached.',
  },
  {
    name: 'Numbers',
    description: 'The sender addresses of your account, usable as `from`, with their health.',
  },
  {
    name: 'Opt-outs',
    description:
      'Recipients who texted STOP (or whose carrier reported an opt-out) to one of your numbers: sends to them from that number are refused until they text START. Compliance help, not legal advice.',
  },
  {
    name: 'Contact erasure',
    description:
      'Forgetting a contact: erase everything held about one address (messages, content, attachments, events, delivery logs, chats), keeping only the opt-out fact and a record of the erasure.',
  },
  {
    name: 'Webhooks',
    description:
      'Webhook registrations that receive signed event deliveries (`X-Signature: sha256=…` over `<timestamp>.<raw body>`), retried seven times over about two and a half days; test deliveries and the delivery log.',
  },
  {
    name: 'Callbacks',
    description:
      "A send's `callbackUrl` receives that message's events, signed with your callback signing secret and retried like a webhook. Read or rotate the secret, and follow the deliveries in their own log.",
  },
  {
    name: 'Webhooks (legacy)',
    description:
      'Deprecated single-webhook endpoints. They keep working and act on the oldest active webhook; use the `Webhooks` endpoints instead.',
  },
  {
    name: 'WhatsApp',
    description:
      'Pair a WhatsApp session per owned number (QR code or pairing code), follow its status, check recipients and read received sign-up codes.',
  },
  {
    name: 'Events',
    description:
      'The live Server-Sent Events stream: the same event envelopes as webhooks, with no retry or replay.',
  },
  {
    name: 'Attachments',
    description:
      'Downloads of inbound attachments through pre-signed URLs that need no API key and expire after one hour.',
  },
  {
    name: 'Health',
    description:
      'Service health for load balancers and monitoring; no authentication, not rate limited.',
  },
  {
    name: 'Admin',
    description:
      'Operator endpoints (customers, API keys, sender instances), authenticated with the admin token instead of an API key.',
  },
  {
    name: 'Providers',
    description:
      "The upstream ingress: each provider instance's webhook URL, where BlueBubbles or Twilio posts what happens upstream. Authenticated by the per-instance token in the path and the upstream's own signature.",
  },
  {
    name: 'Sandbox',
    description:
      'Development helpers of the built-in simulator provider: inject inbound messages and provider outcomes to exercise an integration without real devices.',
  },
];
