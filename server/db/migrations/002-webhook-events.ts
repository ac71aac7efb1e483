import 'server-only';
import type { Migration } from './types';

// 001 kept only the ids of received deliveries. A delivery now keeps what it said and whom it concerns,
// so the live bus can send a small NOTIFY (the id) and every instance reads the rest from here. The new
// columns are nullable because 001's table could already hold bare ids; the receiver always fills them.
const sql = /* sql */ `
ALTER TABLE webhook_deliveries
  ADD COLUMN event_type     text,
  ADD COLUMN sent_at        timestamptz,
  ADD COLUMN occurred_at    timestamptz,
  ADD COLUMN application_id text,
  ADD COLUMN business_id    text,
  ADD COLUMN deal_id        text,
  ADD COLUMN payload        jsonb;
CREATE INDEX webhook_deliveries_application_idx ON webhook_deliveries (application_id, received_at) WHERE application_id IS NOT NULL;
CREATE INDEX webhook_deliveries_business_idx ON webhook_deliveries (business_id, received_at) WHERE business_id IS NOT NULL;
CREATE INDEX webhook_deliveries_deal_idx ON webhook_deliveries (deal_id, received_at) WHERE deal_id IS NOT NULL;
`;

export const webhookEvents: Migration = { version: 2, name: 'webhook-events', sql };
