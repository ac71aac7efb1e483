/*
 * What a client can add to any request to look like something else: a file name (X-Filename made a request skip
 * proxy.ts once, whatever its path) and forwarding headers naming another client, host or scheme. The security
 * matrices send every route each of these, and each must change nothing.
 */

export const FORGED_FORWARDING = {
  'X-Forwarded-For': '10.9.0.1, 10.9.0.2',
  'X-Real-IP': '10.9.0.3',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'javascript',
  Forwarded: 'for=10.9.0.4;host=evil.example;proto=javascript',
} as const;

export const HEADER_VARIANTS: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]> = [
  ['as the app sends it', {}],
  ['naming a file (X-Filename)', { 'X-Filename': 'a.pdf' }],
  ['with forged forwarding headers', FORGED_FORWARDING],
  ['naming a file, with forged forwarding headers', { 'X-Filename': 'a.pdf', ...FORGED_FORWARDING }],
];
