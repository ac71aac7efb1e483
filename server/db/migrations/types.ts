import 'server-only';

/** A schema change. Versions only grow; an applied migration is never edited, a new one follows it. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
