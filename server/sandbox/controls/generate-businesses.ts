import { z } from 'zod';
import { createBusiness } from '../handlers/businesses';
import type { Sandbox } from '../sandbox';
import { mulberry32 } from './faults';

/** Body of POST /_sandbox/businesses: how many businesses to add and the PRNG seed of their names and stages. */
export const GenerateBusinessesBody = z.strictObject({
  generate: z.int().min(1).max(20_000),
  seed: z.int().min(0).max(2 ** 31 - 1).optional(),
});

const FIRST = ['Amber', 'Bright', 'Cobalt', 'Delta', 'Ember', 'Fern', 'Granite', 'Harbour', 'Iris', 'Juniper', 'Kestrel', 'Linden', 'Maple', 'Northgate', 'Orchard', 'Pennine'];
const SECOND = ['Bakery', 'Joinery', 'Logistics', 'Dental', 'Studio', 'Garage', 'Florist', 'Brewing', 'Textiles', 'Print', 'Software', 'Cafe'];
const GIVEN = ['Alex', 'Sam', 'Priya', 'Tom', 'Mei', 'Owen', 'Zara', 'Luca', 'Nia', 'Ravi', 'Ella', 'Jonas'];
const FAMILY = ['Okafor', 'Hughes', 'Patel', 'Novak', 'Byrne', 'Lindqvist', 'Mensah', 'Rossi', 'Kaur', 'Walsh', 'Tanaka', 'Evans'];

/**
 * Adds `generate` businesses at once (benchmarks of the BFF's read model): each with a contact and its intake
 * application, spread over the default pipeline's stages, names and contacts drawn from a seeded PRNG. Like the
 * seed data they announce no events: a reconcile is what finds them.
 */
export function generateBusinesses(sb: Sandbox, body: z.output<typeof GenerateBusinessesBody>) {
  const rng = mulberry32(body.seed ?? 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rng() * list.length)]!;
  const { pipeline_id } = sb.state.default_business_stage;
  const stages = sb.state.business_pipelines.find((p) => p.id === pipeline_id)?.stages ?? [];
  const start = Object.keys(sb.state.businesses).length;
  for (let i = 0; i < body.generate; i++) {
    const given = pick(GIVEN);
    const family = pick(FAMILY);
    const name = `${pick(FIRST)} ${pick(SECOND)} ${start + i + 1} Ltd`;
    const business = createBusiness(sb, { name, contact: { full_name: `${given} ${family}`, email: `${given}.${family}.${start + i + 1}@example.test`.toLowerCase() } }, null);
    const stage = stages.length > 0 ? pick(stages) : null;
    if (stage) business.stage_id = stage.id;
  }
  sb.changed();
  return { object: 'sandbox_businesses', generated: body.generate, total: Object.keys(sb.state.businesses).length };
}
