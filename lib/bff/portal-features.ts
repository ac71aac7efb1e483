/**
 * What the Portal this app works with offers beyond the spec's guarantees (read from its /openapi.json): pages
 * show a feature, or say plainly that the Portal does not have it, rather than offer a button that must fail.
 */
export interface PortalFeaturesView {
  /** Funding projects can be read (DESIGN.md §6). */
  funding: boolean;
  /** …and a new one made. */
  fundingCreate: boolean;
  /** Deals can be made for a recipient chosen from the Portal's list of them. */
  recipients: boolean;
  /** Read from the Portal's document; false while it could not be read (then only the spec's operations are assumed). */
  known: boolean;
}

/** Said where funding would be. */
export const FUNDING_UNAVAILABLE = 'Funding recommendations are not available on this Portal.';
