import { describe, expect, it } from 'vitest';
import { ALLOWED_UPLOAD_TYPES, MAX_UPLOAD_BYTES } from '@/lib/bff/files';
import { acceptAttribute, checkFilesBeforeUpload, contentTypeOf, describeTypes, formatBytes, type FileCheckOptions } from '@/lib/forms/file-checks';

const MB = 1024 * 1024;
const pdf = (name = 'scan.pdf', size = 2 * MB) => ({ name, size, type: 'application/pdf' });
const many: FileCheckOptions = { already: 0, maxFiles: undefined, multiple: true };
const messages = (checks: ReturnType<typeof checkFilesBeforeUpload>) => checks.map((c) => (c.ok ? 'ok' : c.message));

describe('file checks before upload', () => {
  it('accepts files of an allowed type within the size limit, with the type to upload them as', () => {
    const checks = checkFilesBeforeUpload([pdf(), { name: 'photo.JPG', size: 10, type: 'image/jpeg' }], many);
    expect(checks).toEqual([
      { file: pdf(), ok: true, contentType: 'application/pdf' },
      { file: { name: 'photo.JPG', size: 10, type: 'image/jpeg' }, ok: true, contentType: 'image/jpeg' },
    ]);
  });

  it('refuses other types, naming the accepted ones', () => {
    const [check] = checkFilesBeforeUpload([{ name: 'report.exe', size: 100, type: 'application/x-msdownload' }], many);
    expect(check).toMatchObject({ ok: false, reason: 'type' });
    expect(messages([check!])).toEqual(['report.exe: this type of file is not accepted (PDF, PNG, JPEG, text, CSV, Word or Excel)']);
  });

  it('guesses the type from the name when the browser gives none', () => {
    expect(checkFilesBeforeUpload([{ name: 'figures.xlsx', size: 100, type: '' }], many)[0]).toMatchObject({
      ok: true,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(checkFilesBeforeUpload([{ name: 'README', size: 100, type: '' }], many)[0]).toMatchObject({ ok: false, reason: 'type' });
    expect(contentTypeOf({ name: 'notes.txt', type: 'TEXT/PLAIN; charset=utf-8' })).toBe('text/plain');
  });

  it('refuses files over the limit, in sizes people read', () => {
    expect(messages(checkFilesBeforeUpload([pdf('scan.pdf', 31 * MB)], many))).toEqual([
      'scan.pdf is 31 MB; the largest file accepted is 25 MB',
    ]);
    // Rounded, a file one byte over the limit would read as the limit itself.
    expect(messages(checkFilesBeforeUpload([pdf('scan.pdf', MAX_UPLOAD_BYTES + 1)], many))).toEqual([
      'scan.pdf is larger than 25 MB; the largest file accepted is 25 MB',
    ]);
    expect(checkFilesBeforeUpload([pdf('scan.pdf', MAX_UPLOAD_BYTES)], many)[0]!.ok).toBe(true);
    expect(messages(checkFilesBeforeUpload([pdf('a.pdf', 2 * 1024)], { ...many, maxBytes: 1024 }))).toEqual([
      'a.pdf is 2 KB; the largest file accepted is 1 KB',
    ]);
  });

  it('refuses empty files', () => {
    expect(checkFilesBeforeUpload([pdf('blank.pdf', 0)], many)[0]).toMatchObject({ ok: false, reason: 'empty' });
  });

  it('keeps to the number of files the question takes, counting those attached', () => {
    const single: FileCheckOptions = { already: 1, maxFiles: 1, multiple: false };
    expect(messages(checkFilesBeforeUpload([pdf('second.pdf')], single))).toEqual([
      'second.pdf was not added: only 1 file can be attached; remove one first',
    ]);
    const three: FileCheckOptions = { already: 1, maxFiles: 3, multiple: true };
    expect(messages(checkFilesBeforeUpload([pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')], three))).toEqual([
      'ok',
      'ok',
      'c.pdf was not added: only 3 files can be attached; remove one first',
    ]);
  });

  it('does not let a refused file take a good one’s place', () => {
    const checks = checkFilesBeforeUpload([pdf('huge.pdf', 40 * MB), pdf('fine.pdf')], { already: 0, maxFiles: 1, multiple: false });
    expect(checks.map((c) => c.ok)).toEqual([false, true]);
  });

  it('takes one file from a drop of many onto a single-file question', () => {
    const checks = checkFilesBeforeUpload([pdf('a.pdf'), pdf('b.pdf')], { already: 0, maxFiles: 1, multiple: false });
    expect(checks.map((c) => c.ok)).toEqual([true, false]);
    expect(checks[1]).toMatchObject({ reason: 'count' });
  });

  it('honours other allowed types', () => {
    const onlyImages = { ...many, allowedTypes: ['image/png', 'image/jpeg'] };
    expect(messages(checkFilesBeforeUpload([pdf('scan.pdf')], onlyImages))).toEqual([
      'scan.pdf: this type of file is not accepted (PNG or JPEG)',
    ]);
  });
});

describe('file-check helpers', () => {
  it('formats sizes', () => {
    expect([0, 1, 1023, 1024, 1536, 10 * MB, 1.25 * MB, 250 * MB].map(formatBytes)).toEqual([
      '0 bytes',
      '1 byte',
      '1023 bytes',
      '1 KB',
      '1.5 KB',
      '10 MB',
      '1.3 MB',
      '250 MB',
    ]);
  });

  it('names types once each', () => {
    expect(describeTypes()).toBe('PDF, PNG, JPEG, text, CSV, Word or Excel');
    expect(describeTypes(['application/pdf'])).toBe('PDF');
  });

  it('gives the picker types and extensions', () => {
    const accept = acceptAttribute().split(',');
    expect(accept).toEqual(expect.arrayContaining([...ALLOWED_UPLOAD_TYPES, '.pdf', '.docx', '.jpg', '.jpeg']));
  });
});
