import { randomBytes } from 'node:crypto';
import { ID_PREFIXES, type IdKind } from '@/lib/portal';
import type { State } from './types';

/** New ids: the state's sequence (ordering, uniqueness) plus random characters (unguessable). */
export function newId(state: State, kind: IdKind): string {
  state.seq += 1;
  const rand = randomBytes(5).readUIntBE(0, 5).toString(36).padStart(8, '0');
  return `${ID_PREFIXES[kind]}${state.seq.toString(36)}${rand}`;
}

export const nextSeq = (state: State) => ++state.seq;

export const randomToken = (bytes = 18) => randomBytes(bytes).toString('base64url');
