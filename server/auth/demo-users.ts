// Plain data, free of `server-only`, so the launcher can print the sign-ins it seeds.

/** The demo accounts `npm start` creates when missing (README, "Quick start"). */
export const DEMO_ACCOUNTS = [
  { email: 'staff@example.com', name: 'Sam Staff', role: 'staff', password: 'staff-demo-password' },
  { email: 'reviewer@example.com', name: 'Riley Reviewer', role: 'reviewer', password: 'reviewer-demo-password' },
] as const;
