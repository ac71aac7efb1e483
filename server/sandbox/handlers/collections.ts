/** Where businesses and deals live: each one's paths, OpenAPI tag and permissions are named after its collection. */
export const COLLECTIONS = { business: 'businesses', deal: 'deals' } as const;
