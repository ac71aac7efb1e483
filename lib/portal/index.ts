/** The one schema module for the upstream Portal API: every resource of spec §2 and DESIGN.md §5 and §6. */
export * from './ids';
export * from './limits';
export * from './common';
export * from './api-root';
export * from './business';
export * from './people';
export * from './application';
export * from './value-schema';
export * from './visibility';
export * from './contract';
export * from './answers';
export * from './autofill';
export * from './deals';
export * from './projects';
