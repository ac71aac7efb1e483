import 'server-only';
import type { Migration } from './types';

// Each app instance keeps the sessions it resolved in memory (server/auth/session-cache.ts), so a request
// costs no database round trip for its session. Whatever may end a session — its row revoked, expired or
// deleted, its user disabled, changed or deleted, its invitation revoked or changed — announces itself here,
// from the database, on channel session_changed, so every instance forgets the session on commit however
// the row was changed (a route, the users CLI, an operator's SQL). The touch of last_seen_at (moving it
// forward, once a minute per live session) is the one change that says nothing.
const sql = /* sql */ `
CREATE FUNCTION notify_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'sessions' THEN
    IF TG_OP = 'UPDATE' AND NEW.last_seen_at >= OLD.last_seen_at
       AND (to_jsonb(NEW) - 'last_seen_at') = (to_jsonb(OLD) - 'last_seen_at') THEN
      RETURN NULL;
    END IF;
    PERFORM pg_notify('session_changed', 'sid:' || OLD.id);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('session_changed', 'user:' || OLD.id);
  ELSE
    PERFORM pg_notify('session_changed', 'invitation:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION notify_session_changed();
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_session_changed();
CREATE TRIGGER invitations_changed AFTER UPDATE OR DELETE ON invitations FOR EACH ROW EXECUTE FUNCTION notify_session_changed();
`;

export const sessionCache: Migration = { version: 6, name: 'session-cache', sql };
