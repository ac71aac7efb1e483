import 'server-only';

export { getEnv, resetEnvForTests } from './get-env';
export { EnvError, parseEnv, type ParseEnvOptions } from './parse-env';
export { ENV_DOCS, type EnvDoc } from './env-docs';
export type { Env, EnvSource } from './types';
