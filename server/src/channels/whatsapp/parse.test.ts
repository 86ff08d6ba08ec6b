import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdapterChannel, RawRequest } from '../types.ts';
import { parseWhatsApp } from './parse.ts';

const channel: AdapterChannel = {
  id: 'c1',
  organisationId: 'o1',
  inboundKeyHash: null,
  settings: { phoneNumberId: '106540352242922' },
  secrets: {},
};
/** A Cloud API webhook with one change (the shape of the webhooks reference). */
const req = (field: string, value: Record<string, unknown>): RawRequest => {
  const body = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          {
            field,
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              ...value,
            },
          },
        ],
      },
    ],
  };
  return { headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify(body)), body };
};
const contacts = [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }];
const msg = (type: string, body: Record<string, unknown>) => ({
  from: '16505551234',
  id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
  timestamp: '1739321024',
  type,
  ...body,
});
const client = { externalId: '16505551234', name: 'Sheena Nelson' };

test('an edit names the original and carries its new text or caption; a revoke gives nothing', () => {
  const events = parseWhatsApp(
    channel,
    req('messages', {
      contacts,
      messages: [
        msg('edit', {
          edit: {
            original_message_id: 'wamid.ORIGINAL1',
            message: {
              context: { id: 'wamid.ORIGINAL1' },
              type: 'text',
              text: { body: 'Tuesday, not Monday' },
            },
          },
        }),
        msg('edit', {
          edit: {
            original_message_id: 'wamid.ORIGINAL2',
            message: {
              type: 'image',
              image: { caption: 'The blue one', mime_type: 'image/jpeg', id: '1479', sha256: 'x' },
            },
          },
        }),
        msg('revoke', { revoke: { original_message_id: 'wamid.ORIGINAL1' } }),
      ],
    }),
  );
  assert.deepEqual(events, [
    {
      kind: 'edit',
      message: { externalMessageId: 'wamid.ORIGINAL1', client, text: 'Tuesday, not Monday', attachments: [] },
    },
    {
      kind: 'edit',
      message: { externalMessageId: 'wamid.ORIGINAL2', client, text: 'The blue one', attachments: [] },
    },
  ]);
});

test("a number change keeps WhatsApp's words and moves the contact; an identity change is a notice only", () => {
  const [notice, moved] = parseWhatsApp(
    channel,
    req('messages', {
      contacts,
      messages: [
        msg('system', {
          system: {
            body: 'Sheena changed from 16505551234 to 16505559999',
            new_wa_id: '16505559999',
            type: 'user_changed_number',
          },
        }),
      ],
    }),
  );
  assert.equal(
    notice?.kind === 'message' && notice.message.text,
    '[WhatsApp: Sheena changed from 16505551234 to 16505559999]',
  );
  assert.deepEqual(moved, {
    kind: 'moved',
    client: { externalId: '16505551234' },
    newExternalId: '16505559999',
  });
  const identity = parseWhatsApp(
    channel,
    req('messages', {
      contacts,
      messages: [
        msg('system', { system: { body: 'Security code changed', type: 'customer_identity_changed' } }),
      ],
    }),
  );
  assert.equal(identity.length, 1);
  assert.equal(
    identity[0]?.kind === 'message' && identity[0].message.text,
    '[WhatsApp: Security code changed]',
  );
});

test('other webhook fields and unknown statuses are ignored by name', () => {
  assert.deepEqual(parseWhatsApp(channel, req('message_template_status_update', { event: 'APPROVED' })), [
    { kind: 'ignored', what: 'field message_template_status_update' },
  ]);
  assert.deepEqual(
    parseWhatsApp(
      channel,
      req('messages', { statuses: [{ id: 'wamid.X', status: 'deleted', recipient_id: '1' }] }),
    ),
    [{ kind: 'ignored', what: 'status deleted' }],
  );
  assert.deepEqual(
    parseWhatsApp(
      channel,
      req('messages', { statuses: [{ id: 'wamid.X', status: 'sent', recipient_id: '1' }] }),
    ),
    [],
  );
});
