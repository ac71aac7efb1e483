/** What the welcome page tells an invited client the first time they open their link (a view model). */
export interface ClientWelcomeView {
  applicationId: string;
  clientName: string | null;
  businessName: string | null;
  /** Who asked: the staff member who made the invitation, and the organisation whose Portal it is. */
  invitedBy: string | null;
  organisation: string | null;
  applicationName: string;
  description: string;
  instructions: string;
  sectionCount: number;
  /** The documents the form asks for, in the contract's order, and whether one is already attached. */
  documents: { key: string; label: string; helpText: string | null; required: boolean; conditional: boolean; provided: boolean }[];
  progress: { answered: number; total: number; percent: number } | null;
  submittedAt: string | null;
}
