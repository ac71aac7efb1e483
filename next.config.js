// @ts-check

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The standalone server as well, when the build asks for it: the Dockerfile's build and `npm run build:if-stale`
  // (server/launcher/build.ts) do. `next start` reads this file again without NEXT_OUTPUT and serves the same .next.
  ...(process.env.NEXT_OUTPUT === 'standalone' ? { output: 'standalone' } : {}),
  // `npm run typecheck` (part of `npm test`) type-checks the whole project, tests included; the build
  // does not repeat it, so `npm start` stays quick.
  typescript: { ignoreBuildErrors: true },
  // Loaded by Node at run time rather than bundled: PGlite ships WebAssembly and data files, pg optional natives,
  // pdfkit reads its data files next to itself, fontkit and yazl are plain Node libraries.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pdfkit', 'fontkit', 'yazl'],
  // The sandbox is a standalone server; keep it (and its seed data) out of the app's bundles.
  outputFileTracingExcludes: { '*': ['server/sandbox/**', 'tests/**'] },
  // The stylesheets (a few KiB) go into the page itself: no render-blocking requests before the first
  // paint, and none before the inline scripts that carry the page's data may run (the form's
  // HTML 69 → N KiB, still under its 150 KiB budget). The CSP allows inline styles already.
  experimental: { inlineCss: true },
};

module.exports = nextConfig;
