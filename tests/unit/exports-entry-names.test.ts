import { describe, expect, it } from 'vitest';
import { documentEntryName, safeNamePart, uniqueNames } from '@/lib/exports/entry-names';

describe('ZIP entry names', () => {
  it('are <business> – <question> – <file>, keeping the extension', () => {
    expect(documentEntryName('Meridian Engineering Ltd', 'Business bank statements', 'march.pdf')).toBe(
      'Meridian Engineering Ltd – Business bank statements – march.pdf',
    );
  });

  it('cannot climb out of the folder: no slashes, backslashes or dot-dot parts', () => {
    const name = documentEntryName('../../etc', 'a/b\\c', '../../passwd');
    expect(name).not.toMatch(/[/\\]/);
    expect(name.split(' – ').some((part) => part === '..' || part.startsWith('.'))).toBe(false);
    expect(safeNamePart('..', 'file')).toBe('file');
    expect(safeNamePart('.', 'file')).toBe('file');
    expect(safeNamePart('/', 'file')).toBe('_');
  });

  it('drops NUL and other controls, and bidi controls that would disguise an extension', () => {
    const name = documentEntryName('Acme\u0000 Ltd', 'ID\u200f document', 'invoice\u202efdp.exe');
    expect(name).toBe('Acme Ltd – ID document – invoicefdp.exe');
    expect(name).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
  });

  it('replaces characters Windows refuses and trims trailing dots and spaces', () => {
    expect(safeNamePart('What: why? <yes>|"no"*', 'x')).toBe('What_ why_ _yes___no__');
    expect(safeNamePart('Report.  ', 'x')).toBe('Report');
  });

  it('keeps any script, and shortens long parts at whole characters', () => {
    expect(documentEntryName('深圳精密机械', 'مستندات', 'Δήλωση.pdf')).toBe('深圳精密机械 – مستندات – Δήλωση.pdf');
    const long = documentEntryName('B'.repeat(500), '🚀'.repeat(200), `${'x'.repeat(400)}.pdf`);
    const [business, question, file] = long.split(' – ');
    expect(business).toHaveLength(60);
    expect(Array.from(question!)).toHaveLength(60);
    expect(question).toBe("🚀".repeat(60));
    expect(file!.endsWith('.pdf')).toBe(true);
  });

  it('never leaves a part empty', () => {
    expect(documentEntryName('', '\u202e', '.pdf')).toBe('Business – Document – file.pdf');
  });

  it('are unique, case-insensitively, by a number before the extension', () => {
    expect(uniqueNames(['a – b – x.pdf', 'A – B – X.pdf', 'a – b – x.pdf', 'other'])).toEqual(['a – b – x.pdf', 'A – B – X (2).pdf', 'a – b – x (3).pdf', 'other']);
  });
});
