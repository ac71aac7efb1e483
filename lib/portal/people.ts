import { z } from 'zod';
import { DateTime, Revision, Uri } from './common';
import { PersonId, PersonTagId } from './ids';

const PersonTag = z.strictObject({ id: PersonTagId, name: z.string(), color: z.string().nullable() });

/** 2.7 Person. */
export const Person = z.strictObject({
  id: PersonId,
  object: z.literal('person'),
  full_name: z.string(),
  email: z.string(),
  phone_number: z.string(),
  company_name: z.string(),
  job_title: z.string(),
  notes: z.string(),
  is_do_not_contact: z.boolean(),
  is_primary: z.boolean(),
  owner: z.strictObject({ email: z.string(), name: z.string() }).nullable(),
  tags: z.array(PersonTag),
  created_at: DateTime,
  updated_at: DateTime,
  frontend_link: Uri.nullable(),
});

/** 2.7 Business people (participant list). */
export const ParticipantList = z.strictObject({
  object: z.literal('participant_list'),
  items: z.array(Person),
  revision: Revision,
});
export type ParticipantList = z.infer<typeof ParticipantList>;
