import { describe, expect, it } from 'vitest';
import { headerSafe } from '@/lib/bff/messages';
import { invitationMail } from '@/server/messages/templates/invitation-mail';
import { reminderMail } from '@/server/messages/templates/reminder-mail';

const base = {
  clientName: 'Casey Client',
  inviterName: 'Sam Staff',
  organisationName: 'Northwind Grants',
  businessName: 'Harbour Café Ltd',
  progress: { completed: 3, total: 12 },
  link: 'https://intake.example.com/invite/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde',
  expiresAt: new Date('2030-01-02T03:04:05Z'),
};

describe('the invitation mail', () => {
  it('says the same in text and HTML (snapshots)', async () => {
    const mail = invitationMail(base);
    expect(mail.subject).toBe('Your application for Harbour Café Ltd: information needed');
    await expect(mail.text).toMatchFileSnapshot('__snapshots__/invitation-mail.txt');
    await expect(mail.html).toMatchFileSnapshot('__snapshots__/invitation-mail.html');
  });

  it('escapes every value in the HTML and fetches nothing', () => {
    const mail = invitationMail({
      ...base,
      clientName: '<script>alert(1)</script>',
      businessName: 'Fish & "Chips" <b>Ltd</b>',
      inviterName: "O'Neil <img src=x onerror=alert(1)>",
      link: 'https://intake.example.com/invite/x"><script>',
    });
    expect(mail.html).not.toMatch(/<script|<img|<b>|onerror=alert\(1\)>/);
    expect(mail.html).toContain('Fish &amp; &quot;Chips&quot; &lt;b&gt;Ltd&lt;/b&gt;');
    expect(mail.html).toContain('href="https://intake.example.com/invite/x&quot;&gt;&lt;script&gt;"');
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    // Nothing to fetch: no image, style sheet or background from anywhere.
    expect(invitationMail(base).html).not.toMatch(/src=|url\(|<link|<img/i);
    // The text is text: nothing is escaped in it.
    expect(mail.text).toContain('Hello <script>alert(1)</script>,');
  });

  it('does without what is not known: names, progress, organisation', () => {
    const mail = invitationMail({ ...base, clientName: null, businessName: null, organisationName: null, progress: null });
    expect(mail.subject).toBe('Your application: information needed');
    expect(mail.text).toMatch(/^Hello,\n\nSam Staff asks you to complete an application\. /);
    expect(mail.text).not.toMatch(/questions to answer|are left/);
    expect(mail.text).toContain('You received this message because Sam Staff invited this address');
  });

  it('counts what is left when some is done, and all when none is', () => {
    expect(invitationMail(base).text).toContain('3 of 12 questions are answered already; 9 are left.');
    expect(invitationMail({ ...base, progress: { completed: 0, total: 12 } }).text).toContain('There are 12 questions to answer.');
  });
});

describe('the reminder mail', () => {
  const reminder = {
    clientName: 'Casey Client',
    inviterName: 'Sam Staff',
    businessName: 'Harbour Café Ltd',
    progressPercent: 40,
    sectionsLeft: ['Contact', 'Financials'],
    documentsLeft: ['Bank statements'],
    opened: true,
    dueText: null,
    overdue: false,
    link: base.link,
    unsubscribeUrl: 'https://intake.example.com/unsubscribe/x.y',
  };

  it('names the sections to finish and the documents to upload, in text and HTML', () => {
    const mail = reminderMail(reminder);
    expect(mail.text).toContain('Your application is 40% complete');
    expect(mail.text).toContain('\n\nStill to finish: Contact and Financials.\n\nDocuments still to upload: Bank statements.\n\n');
    expect(mail.html).toContain('Still to finish: Contact and Financials.');
    expect(mail.html).toContain('Documents still to upload: Bank statements.');
  });

  it('names five of a long list and counts the rest, and escapes every label in the HTML', () => {
    const sections = ['A', 'B', 'C', 'D', 'E', 'F', 'G', '<Owners & directors>'];
    const mail = reminderMail({ ...reminder, sectionsLeft: sections });
    expect(mail.text).toContain('Still to finish: A, B, C, D, E and 3 more.');
    const last = reminderMail({ ...reminder, sectionsLeft: ['<Owners & directors>'] });
    expect(last.html).toContain('Still to finish: &lt;Owners &amp; directors&gt;.');
    expect(last.html).not.toContain('<Owners');
  });

  it('says nothing of what is left when it is not known, or the link was never opened', () => {
    for (const mail of [reminderMail({ ...reminder, sectionsLeft: [], documentsLeft: [] }), reminderMail({ ...reminder, opened: false })]) {
      expect(mail.text).not.toMatch(/Still to finish|Documents still to upload/);
    }
  });
});

describe('headerSafe', () => {
  it.each(['a\rb', 'a\nb', 'a\0b', 'a\u202Eb', 'a\u2066b', 'a\u200Fb', 'a\u2028b'])('refuses %j', (v) => expect(headerSafe(v)).toBe(false));
  it.each(['Casey Client', 'Zoë Ångström', 'محمد', '李小龙'])('takes %j', (v) => expect(headerSafe(v)).toBe(true));
});
