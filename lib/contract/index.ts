/** Contract logic shared by the sandbox, the BFF and the browser form: pure, isomorphic, no I/O. */
export * from './answer-values';
export * from './text-hygiene';
export * from './value-formats';
export * from './value-validation';
export * from './visibility';
