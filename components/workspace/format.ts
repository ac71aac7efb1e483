/** Dates of the workspace's lists, as people read them (the exact time is in the <time> element). */
export const shortDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

export const businessName = (b: { id: string; name: string | null }) => b.name ?? `Unnamed business (${b.id})`;
