import { describe, expect, it } from 'vitest';
import { closingStageIds } from '@/lib/bff/closing-stages';

const stages = (...names: string[]) => names.map((name, order) => ({ id: `s${order}`, name, order }));

describe('closing stages, read from the pipeline', () => {
  it('the seed pipelines: outcomes and the last stage close, the rest do not', () => {
    const onboarding = stages('New lead', 'Qualifying', 'Application in progress', 'Submitted', 'Under review', 'Approved', 'Declined');
    expect([...closingStageIds(onboarding)].sort()).toEqual(['s5', 's6']);
    const deals = stages('Draft', 'Submitted to recipient', 'In review', 'Offer made', 'Won', 'Lost');
    expect([...closingStageIds(deals)].sort()).toEqual(['s4', 's5']);
    expect([...closingStageIds(stages('Renewal due', 'Renewal in progress', 'Renewed'))]).toEqual(['s2']);
  });

  it('goes by order, not by the list’s position, and takes whole words only', () => {
    const shuffled = [
      { id: 'b', name: 'Later', order: 9 },
      { id: 'a', name: 'Earlier', order: 1 },
      { id: 'c', name: 'Wonderful leads', order: 2 },
    ];
    expect([...closingStageIds(shuffled)]).toEqual(['b']);
    expect(closingStageIds([]).size).toBe(0);
  });
});
