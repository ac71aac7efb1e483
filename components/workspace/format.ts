export const businessName = (b: { id: string; name: string | null }) => b.name ?? `Unnamed business (${b.id})`;
