/**
 * Where each behaviour of the fake Baileys socket (`fake-baileys-socket.ts`) comes from in the
 * Baileys we run: one row per method the fake implements, event it emits, default it follows and
 * quirk it reproduces, each citing `baileys@7.0.0-rc14 lib/<file>:<line>` (the installed, compiled
 * code) with a piece of that line as evidence. A second section lists what the adapter relies on.
 * `fake-baileys-fidelity.test.ts` fails when a method or event of the fake has no row, when a row
 * names something the fake lacks, and when a cited line no longer holds its evidence (a Baileys
 * upgrade moved or changed it). Never part of a shipped bundle.
 */

/** A citation of the installed Baileys' compiled code. */
type BaileysCitation = `baileys@7.0.0-rc14 lib/${string}:${number}`;

/** What a row is about. */
type FidelitySubject =
  /** A method (or member) of the fake socket. */
  | `method:${string}`
  /** An event the fake emits. */
  | `event:${string}`
  /** A default of Baileys' socket config the fake follows. */
  | `default:${string}`
  /** An upstream quirk (or bug) the fake reproduces rather than repairs. */
  | `quirk:${string}`
  /** A socket call the adapter makes or an event field it reads. */
  | `adapter:${string}`;

/** One behaviour and where Baileys does it. */
export interface FidelityRow {
  /** The member, event, default or quirk. */
  subject: FidelitySubject;
  /** What the fake does (or what the adapter relies on). */
  behaviour: string;
  /** Where Baileys does it. */
  upstream: BaileysCitation;
  /** Text found on the cited line (checked by the test). */
  evidence: string;
}

/** The fake socket's behaviours. */
export const FAKE_FIDELITY: readonly FidelityRow[] = [
  // Methods of the socket.
  {
    subject: 'method:end',
    behaviour:
      'emits `connection.update` {connection: "close", lastDisconnect: {error, date}} and stops emitting',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:500',
    evidence: "connection: 'close'",
  },
  {
    subject: 'method:logout',
    behaviour: 'unlinks the device, then ends with a Boom 401 "Intentional Logout" (loggedOut)',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:594',
    evidence:
      "void end(new Boom(msg || 'Intentional Logout', { statusCode: DisconnectReason.loggedOut }))",
  },
  {
    subject: 'method:requestPairingCode',
    behaviour:
      'answers an 8-character code; sets creds.pairingCode and creds.me {id: <digits>@s.whatsapp.net, name: "~"}, then emits `creds.update` with the whole creds',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:601',
    evidence: 'authState.creds.pairingCode = pairingCode',
  },
  {
    subject: 'method:pairSucceeded',
    behaviour:
      'the phone side of pairing (not a socket method): `creds.update` with the new me/platform, `connection.update` {isNewLogin: true}, then the close with 515 restartRequired',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:736',
    evidence: "ev.emit('connection.update', { isNewLogin: true, qr: undefined })",
  },
  {
    subject: 'method:sendMessage',
    behaviour:
      "builds the WAMessage with Baileys' own generateWAMessage (text → extendedTextMessage, react → reactionMessage, quoted → contextInfo) or, for media, generateWAMessageFromContent (no upload); resolves once relayed, with key {remoteJid, fromMe: true, id}, status PENDING",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:1140',
    evidence: 'return fullMsg;',
  },
  {
    subject: 'method:presenceSubscribe',
    behaviour:
      'subscribes to a chat (a `presence` node of type subscribe, with the privacy token for a user); the fake records the chat, and shows chat states only to subscribed chats',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:645',
    evidence: 'const presenceSubscribe = async (toJid) => {',
  },
  {
    subject: 'method:sendPresenceUpdate',
    behaviour:
      'composing/paused go to the chat as a `chatstate` node; the fake records them as seen (after a subscribe) or unseen',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:603',
    evidence: 'const sendPresenceUpdate = async (type, toJid) => {',
  },
  {
    subject: 'method:readMessages',
    behaviour: 'accepted and ignored (sends read receipts upstream)',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:126',
    evidence: 'const readMessages = async (keys) => {',
  },
  {
    subject: 'method:onWhatsApp',
    behaviour:
      'skips `@lid` JIDs, answers [] when nothing is left, and lists only the numbers on WhatsApp as {jid: <digits>@s.whatsapp.net, exists: true} (never exists: false)',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:244',
    evidence: 'results.list.filter(a => !!a.contact)',
  },
  {
    subject: 'method:groupCreate',
    behaviour:
      'creates the group and answers its metadata (creator as superadmin; members by phone JID with their `lid` beside, a PN-addressed group)',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:70',
    evidence: 'groupCreate: async (subject, participants) => {',
  },
  {
    subject: 'method:groupMetadata',
    behaviour: 'queries WhatsApp (counted in groupQueries); an unknown group throws Boom 404',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:19',
    evidence: 'const groupMetadata = async (jid) => {',
  },
  {
    subject: 'method:groupUpdateSubject',
    behaviour: 'renames the group; an unknown group throws Boom 404',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:96',
    evidence: 'groupUpdateSubject: async (jid, subject) => {',
  },
  {
    subject: 'method:groupParticipantsUpdate',
    behaviour:
      "answers one {status, jid, content} per member: status is WhatsApp's error attribute or '200' (the fake refuses an unknown number with '403')",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:154',
    evidence: "status: p.attrs.error || '200'",
  },
  {
    subject: 'method:groupLeave',
    behaviour: 'leaves the group',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:87',
    evidence: 'groupLeave: async (id) => {',
  },
  {
    subject: 'method:updateMediaMessage',
    behaviour: 'asks for a media re-upload; the fake answers the message unchanged',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:1011',
    evidence: 'updateMediaMessage: async (message) => {',
  },
  {
    subject: 'method:signalRepository',
    behaviour:
      'lidMapping.getPNForLID answers the phone JID WhatsApp shared for a `@lid` (from a message alternate, `lid-mapping.update` or a history sync) in the `<user>:<device>@s.whatsapp.net` form, else null; it never asks the network',
    upstream: 'baileys@7.0.0-rc14 lib/Signal/lid-mapping.js:228',
    evidence: 'const lidDevice = decoded.device !== undefined ? decoded.device : 0;',
  },
  {
    subject: 'method:ev',
    behaviour:
      "Baileys' real event buffer (makeEventBuffer), so `ev.on`/`process`/`flush` are upstream's",
    upstream: 'baileys@7.0.0-rc14 lib/Utils/event-buffer.js:25',
    evidence: 'export const makeEventBuffer = (logger) => {',
  },
  {
    subject: 'method:user',
    behaviour: 'set from creds.me once the connection opens',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:764',
    evidence: "ev.emit('creds.update', { me: { ...authState.creds.me, lid: node.attrs.lid } })",
  },
  // Events.
  {
    subject: 'event:connection.update',
    behaviour:
      'connecting (receivedPendingNotifications: false) → qr (rotating) or open; close with a Boom carrying the DisconnectReason',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:829',
    evidence: "connection: 'connecting', receivedPendingNotifications: false",
  },
  {
    subject: 'event:creds.update',
    behaviour: 'after pairing (me, platform, registered), on open (me.lid), on a pairing code',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:765',
    evidence: "ev.emit('connection.update', { connection: 'open' })",
  },
  {
    subject: 'event:messages.upsert',
    behaviour:
      "type `notify` for a message received live, `append` for one WhatsApp held while the socket was away (the node's `offline` attribute) and for the socket's own sends when emitOwnEvents",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1432',
    evidence: "await upsertMessage(msg, node.attrs.offline ? 'append' : 'notify');",
  },
  {
    subject: 'event:messages.update',
    behaviour:
      "a direct message's receipts as {key, update: {status, messageTimestamp}} (2 from the owner's phone, 3 delivered, 4 read); a revoke ({message: null, messageStubType: REVOKE}); an edit ({message: {editedMessage: {message}}}); a negative server ack as status ERROR with WhatsApp's code in messageStubParameters",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1199',
    evidence: "ev.emit('messages.update', ids.map(id => ({",
  },
  {
    subject: 'event:message-receipt.update',
    behaviour:
      "a group message's receipts per member: {key, receipt: {userJid (normalized), receiptTimestamp | readTimestamp}}",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1189',
    evidence: "ev.emit('message-receipt.update', ids.map(id => ({",
  },
  {
    subject: 'event:messaging-history.set',
    behaviour: 'the history sync: {chats, contacts, messages, isLatest, progress, syncType}',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/process-message.js:270',
    evidence: "ev.emit('messaging-history.set', {",
  },
  {
    subject: 'event:lid-mapping.update',
    behaviour: '{lid, pn} when WhatsApp shares a mapping; Baileys stores it for getPNForLID',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:1131',
    evidence: 'await signalRepository.lidMapping.storeLIDPNMappings([{ lid, pn }]);',
  },
  {
    subject: 'event:presence.update',
    behaviour:
      '{id: chat, presences: {[participant]: {lastKnownPresence}}}: composing, recording (audio), and `available` for both a pause and coming online',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:691',
    evidence: "ev.emit('presence.update', { id: jid, presences: { [participant]: presence } });",
  },
  {
    subject: 'event:group-participants.update',
    behaviour:
      '{id, author, authorPn, participants (objects {id, phoneNumber?}), action} from a group stub',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/process-message.js:476',
    evidence: "const emitParticipantsUpdate = (action) => ev.emit('group-participants.update', {",
  },
  {
    subject: 'event:groups.update',
    behaviour:
      "a change someone made: {id, subject, author, authorPn} (subject stub); a refetch of every group after WhatsApp marks them dirty: each group's full metadata, no author",
    upstream: 'baileys@7.0.0-rc14 lib/Utils/process-message.js:489',
    evidence: 'author: message.key.participant ?? undefined,',
  },
  // Defaults.
  {
    subject: 'default:emitOwnEvents',
    behaviour:
      'true unless the config says otherwise: each send is upserted again as `append` on the next tick',
    upstream: 'baileys@7.0.0-rc14 lib/Defaults/index.js:55',
    evidence: 'emitOwnEvents: true,',
  },
  {
    subject: 'default:cachedGroupMetadata',
    behaviour:
      "answers nothing unless the config gives one: a group send then queries the group's metadata every time",
    upstream: 'baileys@7.0.0-rc14 lib/Defaults/index.js:81',
    evidence: 'cachedGroupMetadata: async () => undefined,',
  },
  {
    subject: 'default:qrTimeout',
    behaviour: 'the first QR code lives 60 s, each next one 20 s; when the refs run out, close 408',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:723',
    evidence: 'qrMs = qrTimeout || 20000;',
  },
  // Quirks reproduced.
  {
    subject: 'quirk:group-send-metadata',
    behaviour:
      'a group send takes the members from cachedGroupMetadata when it answers participants, else queries groupMetadata',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:501',
    evidence:
      'let groupData = useCachedGroupMetadata && cachedGroupMetadata ? await cachedGroupMetadata(jid) : undefined;',
  },
  {
    subject: 'quirk:server-ack-silent',
    behaviour:
      "WhatsApp's positive ack of a sent message emits nothing; only a negative one (an `error` attribute) becomes messages.update status ERROR",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1558',
    evidence: "ev.emit('messages.update', [",
  },
  {
    subject: 'quirk:sender-receipt-is-server-ack',
    behaviour:
      "status 2 (SERVER_ACK) comes from a `sender` receipt of the owner's own device, not from WhatsApp's server",
    upstream: 'baileys@7.0.0-rc14 lib/Utils/generics.js:266',
    evidence: 'sender: proto.WebMessageInfo.Status.SERVER_ACK,',
  },
  {
    subject: 'quirk:paused-is-available',
    behaviour: 'a chat state `paused` is reported as lastKnownPresence `available`, like "online"',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:680',
    evidence: "type = 'available';",
  },
  {
    subject: 'quirk:onWhatsApp-skips-lid',
    behaviour: 'onWhatsApp warns and skips a `@lid`',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:227',
    evidence: "logger?.warn('LIDs are not supported with onWhatsApp');",
  },
  {
    subject: 'quirk:alt-mapping-stored-silently',
    behaviour:
      "a message's alternate JID is stored as a LID mapping without a `lid-mapping.update` event",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1284',
    evidence:
      'await signalRepository.lidMapping.storeLIDPNMappings([{ lid: alt, pn: primaryJid }]);',
  },
  {
    subject: 'quirk:group-participant-pn-only-beside-lid',
    behaviour:
      'group metadata gives a participant `phoneNumber` only when its id is a `@lid` (and `lid` only when its id is a phone JID)',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:337',
    evidence:
      'phoneNumber: isLidUser(attrs.jid) && isPnUser(attrs.phone_number) ? attrs.phone_number : undefined,',
  },
  {
    subject: 'quirk:iq-error-code-in-data',
    behaviour:
      "a query WhatsApp answers with an error throws a Boom whose message is the error's text and whose `data` is its code; the Boom's statusCode stays 500",
    upstream: 'baileys@7.0.0-rc14 lib/WABinary/generic-utils.js:57',
    evidence:
      "throw new Boom(errNode.attrs.text || 'Unknown error', { data: +errNode.attrs.code });",
  },
  {
    subject: 'quirk:query-timeout',
    behaviour: 'a query WhatsApp does not answer in time throws Boom "Timed Out" 408',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/generics.js:121',
    evidence: "reject(new Boom('Timed Out', {",
  },
  {
    subject: 'quirk:conflict-closes-older',
    behaviour: 'a second socket on the same credentials closes the older one with 440 (conflict)',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/generics.js:283',
    evidence: 'conflict: DisconnectReason.connectionReplaced',
  },
];

/** What the adapter relies on: each socket call it makes and each event field it reads. */
export const ADAPTER_RELIES_ON: readonly FidelityRow[] = [
  {
    subject: 'adapter:messages.upsert',
    behaviour:
      'announces `notify` and `append` alike (append = held while offline); ignores status@broadcast; fromMe = typed on the phone',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1432',
    evidence: "node.attrs.offline ? 'append' : 'notify'",
  },
  {
    subject: 'adapter:messaging-history.set',
    behaviour: 'not subscribed: history is not imported (syncFullHistory false)',
    upstream: 'baileys@7.0.0-rc14 lib/Defaults/index.js:63',
    evidence: 'syncFullHistory: true,',
  },
  {
    subject: 'adapter:emitOwnEvents',
    behaviour:
      'set false: otherwise every send would come back as an `append` upsert, now announced',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:1135',
    evidence: 'if (config.emitOwnEvents) {',
  },
  {
    subject: 'adapter:sendMessage',
    behaviour:
      '`sent` = the promise resolved: Baileys resolves after relaying the encrypted message on the open connection; no positive server ack follows',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:1128',
    evidence: 'await relayMessage(jid, fullMsg.message, {',
  },
  {
    subject: 'adapter:messages.update-error',
    behaviour:
      "status ERROR → `failed`, not retried, with WhatsApp's code (messageStubParameters[0]) kept in the error",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1562',
    evidence: 'status: WAMessageStatus.ERROR,',
  },
  {
    subject: 'adapter:cachedGroupMetadata',
    behaviour:
      'passes a cache of the metadata the session fetched or created, refreshed by groups.update / group-participants.update',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-send.js:501',
    evidence: 'cachedGroupMetadata(jid)',
  },
  {
    subject: 'adapter:presenceSubscribe',
    behaviour: 'subscribes to the chat before sending composing/paused',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:645',
    evidence: 'const presenceSubscribe = async (toJid) => {',
  },
  {
    subject: 'adapter:getPNForLID',
    behaviour:
      'names an `@lid` sender without an alternate JID by the stored mapping; answers isOnWhatsApp for an `@lid` without onWhatsApp',
    upstream: 'baileys@7.0.0-rc14 lib/Signal/lid-mapping.js:199',
    evidence: 'async getPNForLID(lid) {',
  },
  {
    subject: 'adapter:reaction-key',
    behaviour:
      "reacts with the original message's key as received (its `participant` in a group, an `@lid` included)",
    upstream: 'baileys@7.0.0-rc14 lib/Utils/messages.js:326',
    evidence: 'm.reactionMessage = WAProto.Message.ReactionMessage.create(message.react);',
  },
  {
    subject: 'adapter:groups.update',
    behaviour:
      'a rename only with an `author` (authorPn preferred as the actor); a refetch is none',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:56',
    evidence: "sock.ev.emit('groups.update', Object.values(data));",
  },
  {
    subject: 'adapter:group-participants.update',
    behaviour: 'actor authorPn ?? author; member phoneNumber ?? id',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/process-message.js:479',
    evidence: 'authorPn: message.key.participantAlt,',
  },
  {
    subject: 'adapter:message-receipt.update',
    behaviour: 'readTimestamp → read, receiptTimestamp → delivered, per userJid',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1188',
    evidence:
      "const updateKey = status === proto.WebMessageInfo.Status.DELIVERY_ACK ? 'receiptTimestamp' : 'readTimestamp';",
  },
  {
    subject: 'adapter:revoke-edit',
    behaviour:
      'reads both the protocol message upsert and the messages.update Baileys emits for it (same upstream event id)',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/process-message.js:305',
    evidence:
      'update: { message: null, messageStubType: WAMessageStubType.REVOKE, key: message.key }',
  },
  {
    subject: 'adapter:presence.update',
    behaviour:
      'composing/recording → typing start; available/unavailable → stop only after a start from that participant in that chat',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:683',
    evidence: "type = 'recording';",
  },
  {
    subject: 'adapter:groupParticipantsUpdate',
    behaviour: "reads each member's status ('200' or WhatsApp's error code)",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/groups.js:154',
    evidence: "status: p.attrs.error || '200'",
  },
  {
    subject: 'adapter:errors',
    behaviour:
      "a failed call's code is the Boom's `data` (WhatsApp's) else its statusCode: 408/428/429/5xx retryable PROVIDER_TIMEOUT, 404 NOT_FOUND, 400/406 VALIDATION_ERROR, other refusals the delivery error (sends) or INVALID_STATUS, not retried",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:60',
    evidence:
      "throw new Boom('Connection Closed', { statusCode: DisconnectReason.connectionClosed });",
  },
  {
    subject: 'adapter:downloadMediaMessage',
    behaviour: 'fetches inbound media, re-upload through updateMediaMessage',
    upstream: 'baileys@7.0.0-rc14 lib/Utils/messages.js:833',
    evidence: 'export const downloadMediaMessage = async (message, type, options, ctx) => {',
  },
  {
    subject: 'adapter:getMessage',
    behaviour:
      "answers a recipient's retry request with the message kept in the session's memory (a week)",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/messages-recv.js:1061',
    evidence: 'msg = await getMessage({ ...key, id });',
  },
  {
    subject: 'adapter:requestPairingCode',
    behaviour:
      'passes the digits of the number only: Baileys encodes them as <digits>@s.whatsapp.net',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:603',
    evidence: "id: jidEncode(phoneNumber, 's.whatsapp.net'),",
  },
  {
    subject: 'adapter:auth-keys',
    behaviour: "wraps the stored key store in Baileys' makeCacheableSignalKeyStore",
    upstream: 'baileys@7.0.0-rc14 lib/Utils/auth-utils.js:17',
    evidence: 'export function makeCacheableSignalKeyStore(store, logger, _cache) {',
  },
  {
    subject: 'adapter:markOnlineOnConnect',
    behaviour: 'false by default: the socket announces itself unavailable on connect',
    upstream: 'baileys@7.0.0-rc14 lib/Socket/chats.js:1065',
    evidence: "sendPresenceUpdate(markOnlineOnConnect ? 'available' : 'unavailable')",
  },
  {
    subject: 'adapter:close',
    behaviour: "reads lastDisconnect.error's Boom statusCode (DisconnectReason)",
    upstream: 'baileys@7.0.0-rc14 lib/Socket/socket.js:501',
    evidence: 'lastDisconnect: {',
  },
];
