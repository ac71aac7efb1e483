/** The contract-driven form's logic (DESIGN.md §4): pure and isomorphic, no React, DOM or Node APIs. */
export * from './names';
export * from './nesting';
export * from './equality';
export * from './number-input';
export * from './labels';
export * from './schema-facts';
export * from './widgets';
export * from './model';
export * from './items';
export * from './values';
export * from './unreadable-input';
export * from './visibility';
export * from './validation';
export * from './merge';
export * from './autosave-queue';
export * from './progress';
export * from './answers-copy';
