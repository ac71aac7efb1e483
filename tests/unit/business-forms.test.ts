import { describe, expect, it } from 'vitest';
import { businessCreateFormSchema, emptyBusinessCreateForm } from '@/lib/bff/business-create-form';
import { InvitationForm } from '@/lib/bff/invitation-form';
import { ContractView } from '@/lib/bff/applications';
import { slotLabels } from '@/components/businesses/slot-labels';

const form = (change: (v: ReturnType<typeof emptyBusinessCreateForm>) => void) => {
  const v = emptyBusinessCreateForm();
  change(v);
  return v;
};
const messages = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('the create-a-business form', () => {
  it('sends a name alone when the contact is left empty', () => {
    const r = businessCreateFormSchema(null).safeParse(form((v) => (v.name = '  Acme Ltd ')));
    expect(r.success && r.data).toEqual({ name: 'Acme Ltd' });
  });

  it('sends the contact without the details left empty', () => {
    const r = businessCreateFormSchema(null).safeParse(
      form((v) => {
        v.name = 'Acme';
        v.contact.full_name = 'Jo Bloggs';
        v.contact.email = 'jo@example.test';
        v.contact.job_title = 'Owner';
      }),
    );
    expect(r.success && r.data).toEqual({ name: 'Acme', contact: { full_name: 'Jo Bloggs', email: 'jo@example.test', job_title: 'Owner' } });
  });

  it('asks for the name, and for a name and email once a contact is started', () => {
    const r = businessCreateFormSchema(null).safeParse(form((v) => (v.contact.phone_number = '+44 20 7946 0000')));
    expect(messages(r)).toEqual({
      name: 'Enter the business’s name',
      'contact.full_name': 'Enter the contact’s full name, or leave the contact out',
      'contact.email': 'Enter the contact’s email address',
    });
  });

  it('requires one of the key’s lead sources for a source key, and none otherwise', () => {
    const schema = businessCreateFormSchema(['partner-web', 'broker-network']);
    expect(messages(schema.safeParse(form((v) => (v.name = 'Acme'))))).toEqual({ source_channel_id: 'Choose the lead source' });
    expect(messages(schema.safeParse(form((v) => ((v.name = 'Acme'), (v.source_channel_id = 'elsewhere')))))).toEqual({
      source_channel_id: 'Choose the lead source',
    });
    const ok = schema.safeParse(form((v) => ((v.name = 'Acme'), (v.source_channel_id = 'broker-network'))));
    expect(ok.success && ok.data).toEqual({ name: 'Acme', source_channel_id: 'broker-network' });
  });
});

describe('the invite-a-client form', () => {
  it('leaves out what is not given and reads the hours as a number', () => {
    const r = InvitationForm.safeParse({ client_name: ' ', client_email: '', ttl_hours: '48', link_only: false });
    expect(r.success && r.data).toEqual({ client_name: null, client_email: null, ttl_hours: 48, delivery: 'email', client_submits: false });
    // Sending for review is the default; ticked, the client submits to the Portal itself.
    expect(InvitationForm.parse({ client_name: '', client_email: '', ttl_hours: '48', link_only: false, client_submits: true }).client_submits).toBe(true);
    const linkOnly = InvitationForm.safeParse({ client_name: 'Jo', client_email: 'jo@example.com', ttl_hours: '48', link_only: true });
    expect(linkOnly.success && linkOnly.data).toMatchObject({ client_email: 'jo@example.com', delivery: 'link_only' });
    const due = InvitationForm.safeParse({ client_name: '', client_email: 'jo@example.com', ttl_hours: '48', link_only: false, due_date: '2030-05-01' });
    expect(due.success && due.data).toMatchObject({ due_date: '2030-05-01' });
    expect(messages(InvitationForm.safeParse({ client_name: '', client_email: '', ttl_hours: '48', link_only: false, due_date: 'soon' }))).toEqual({
      due_date: 'Enter the due date as a date, or leave it out',
    });
  });

  it('refuses a bad email and hours out of range', () => {
    const r = InvitationForm.safeParse({ client_name: 'Jo', client_email: 'not-an-email', ttl_hours: '721', link_only: false });
    expect(messages(r)).toEqual({
      client_email: 'Enter a valid email address, or leave it out',
      ttl_hours: 'Enter between 1 and 720 hours (30 days)',
    });
    expect(messages(InvitationForm.safeParse({ client_name: '', client_email: '', ttl_hours: '1.5', link_only: false }))).toEqual({
      ttl_hours: 'Enter a whole number of hours',
    });
  });
});

describe('document slot labels', () => {
  it('names a slot after its file question, else shows its path', () => {
    const field = { field_key: 'files', label: 'Files', help_text: null, is_required: false, value_schema: { type: 'array' }, example: null };
    const contract = {
      questions: [{ block_key: 'documents', schema_key: 'bank_statements', label: 'Business bank statements', fields: [field] }],
    } as unknown as ContractView;
    const labels = slotLabels(
      [
        { id: 'upl_a', request_path: 'documents/bank_statements/files', multiple: true },
        { id: 'upl_b', request_path: 'elsewhere/x/files', multiple: false },
      ],
      contract,
    );
    expect([...labels]).toEqual([
      ['upl_a', 'Business bank statements'],
      ['upl_b', 'elsewhere/x/files'],
    ]);
  });
});
