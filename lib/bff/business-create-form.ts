import { z } from 'zod';
import { BusinessCreateInput } from './businesses';

/**
 * The create-a-business form: every input is a string (an empty contact means "no contact"), checked with
 * messages people can act on, then piped into the shared BusinessCreateInput so what the browser sends is
 * exactly what the BFF accepts.
 */
const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters`);

const ContactFields = z.object({
  full_name: text(255),
  email: text(255),
  phone_number: text(64),
  company_name: text(255),
  job_title: text(255),
});
type ContactFields = z.infer<typeof ContactFields>;

const isBlank = (c: ContactFields) => Object.values(c).every((v) => v === '');

/** `sourceChannels`: the key's lead sources when it is a source key (then one is required), else null. */
export function businessCreateFormSchema(sourceChannels: readonly string[] | null) {
  return z
    .object({
      name: text(255).min(1, 'Enter the business’s name'),
      source_channel_id: sourceChannels
        ? z.string().refine((v) => sourceChannels.includes(v), 'Choose the lead source')
        : z.literal(''),
      contact: ContactFields.superRefine((c, ctx) => {
        // A contact is optional, but one that is started must be usable: a name and an email address.
        if (isBlank(c)) return;
        if (!c.full_name) ctx.addIssue({ code: 'custom', path: ['full_name'], message: 'Enter the contact’s full name, or leave the contact out' });
        if (!z.email().safeParse(c.email).success) {
          ctx.addIssue({ code: 'custom', path: ['email'], message: c.email ? 'Enter a valid email address' : 'Enter the contact’s email address' });
        }
      }),
    })
    .transform((v): BusinessCreateInput => {
      const { full_name, email, ...rest } = v.contact;
      // Optional contact details left empty are left out rather than sent as "".
      const extras = Object.fromEntries(Object.entries(rest).filter(([, s]) => s !== ''));
      return {
        name: v.name,
        ...(v.source_channel_id ? { source_channel_id: v.source_channel_id } : {}),
        ...(isBlank(v.contact) ? {} : { contact: { full_name, email, ...extras } }),
      };
    })
    .pipe(BusinessCreateInput);
}

export type BusinessCreateFormValues = z.input<ReturnType<typeof businessCreateFormSchema>>;

export const emptyBusinessCreateForm = (): BusinessCreateFormValues => ({
  name: '',
  source_channel_id: '',
  contact: { full_name: '', email: '', phone_number: '', company_name: '', job_title: '' },
});
