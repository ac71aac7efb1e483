// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Loaded by Node at run time rather than bundled: PGlite ships WebAssembly and data files, pg optional natives.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  // The sandbox is a standalone server; keep it (and its seed data) out of the app's bundles.
  outputFileTracingExcludes: { '*': ['server/sandbox/**', 'tests/**'] },
};

module.exports = nextConfig;
