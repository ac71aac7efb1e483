// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The sandbox is a standalone server; keep it (and its seed data) out of the app's bundles.
  outputFileTracingExcludes: { '*': ['server/sandbox/**', 'tests/**'] },
};

module.exports = nextConfig;
