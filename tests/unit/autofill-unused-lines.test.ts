import { describe, expect, it } from 'vitest';
import { unusedLines } from '@/server/autofill/unused-lines';

describe('the lines of the Autofill text no suggestion came from', () => {
  const text = [
    'Legal name: Harbour Street Hospitality Ltd',
    '',
    '- Employees: 12',
    'The weather was lovely on the day we opened.',
    'Funding purpose:',
    'A new oven and a second espresso machine.',
    'We sold 1,200 coffees a day in May. Our phone is +44 20 7946 0958.',
    `Notes: ${'long words '.repeat(40)}`,
  ].join('\n');

  it('leaves out every line a suggestion quotes: whole, a sentence of it, a heading with its paragraph, or clipped', () => {
    const excerpts = [
      'Legal name: Harbour Street Hospitality Ltd',
      'Employees: 12',
      'Funding purpose: A new oven and a second espresso machine.',
      'Our phone is +44 20 7946 0958.',
      `${`Notes: ${'long words '.repeat(40)}`.slice(0, 120).trim()}…`,
    ];
    expect(unusedLines(text, excerpts)).toEqual(['The weather was lovely on the day we opened.']);
  });

  it('lists every non-blank line when nothing was suggested, as written', () => {
    expect(unusedLines('  First  line \n\n- Second\n', [])).toEqual(['First line', '- Second']);
    expect(unusedLines('', ['anything'])).toEqual([]);
  });
});
