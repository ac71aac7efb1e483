import 'server-only';
import type { SessionView } from '@/lib/bff/auth';
import type { ResolvedSession } from './sessions';

export function sessionView(s: ResolvedSession): SessionView {
  return s.kind === 'user'
    ? { kind: 'user', role: s.role, name: s.userName, email: s.userEmail }
    : { kind: 'client', role: 'client', application_id: s.applicationId };
}
