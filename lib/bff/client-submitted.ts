import type { CopySection } from '@/lib/forms/answers-copy';

/** What the invited client reads once their application is submitted (a view model). */
export interface ClientSubmittedView {
  applicationId: string;
  applicationName: string;
  businessName: string | null;
  submittedAt: string;
  /** The organisation whose Portal it is, and the staff member who invited the client: who to contact. */
  organisation: string | null;
  contact: { name: string; email: string } | null;
  /** A copy of the answers sent. */
  sections: CopySection[];
}
