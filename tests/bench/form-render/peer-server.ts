// Serves the peer of the form render benchmark (peer-app.tsx, @rjsf/core) from a small node:http server on a
// loopback port: the page, its esbuild bundle (production React, minified) and the form data (schema, uiSchema,
// initial formData); and /baseline, a bare one-input form that gives the floor of the keystroke measurement. Bodies are gzip-compressed for clients that accept it, as `next start` compresses ours,
// so the two pages' transferred JavaScript compares like with like.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface PeerServer {
  /** Origin, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** Size of the bundle as built (minified, uncompressed) and gzip-compressed, in bytes. */
  bundleBytes: { raw: number; gzip: number };
  stop(): Promise<void>;
}

/** The peer app bundled for the browser: one minified script, React in production mode. */
export async function bundlePeerApp(): Promise<Buffer> {
  const result = await build({
    entryPoints: [join(__dirname, 'peer-app.tsx')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error('esbuild produced no output');
  return Buffer.from(out.contents);
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Peer: @rjsf/core</title>
<link rel="preload" href="/form.json" as="fetch" crossorigin="anonymous">
<script src="/app.js" defer></script>
</head>
<body><div id="root"></div></body>
</html>
`;

/** A bare form with one text input, ready at once: the floor of the keystroke → paint method on this machine. */
const BASELINE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Baseline: one input</title></head>
<body><form data-form-ready="true"><label>Text <input type="text" name="text" value="Sample answer"></label></form></body>
</html>
`;

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  cache: string;
}

const asset = (type: string, body: Buffer, cache: string): Asset => ({ type, body, gzip: gzipSync(body), cache });

/** Starts the server on 127.0.0.1, port 0 (a free one). `formData` is what /form.json answers. */
export async function startPeerServer(formData: unknown): Promise<PeerServer> {
  const bundle = await bundlePeerApp();
  const assets = new Map<string, Asset>([
    ['/', asset('text/html; charset=utf-8', Buffer.from(PAGE), 'no-store')],
    ['/app.js', asset('text/javascript; charset=utf-8', bundle, 'public, max-age=31536000, immutable')],
    ['/baseline', asset('text/html; charset=utf-8', Buffer.from(BASELINE), 'no-store')],
    ['/form.json', asset('application/json', Buffer.from(JSON.stringify(formData)), 'no-store')],
  ]);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://peer').pathname;
    const a = assets.get(path);
    if (!a || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? a.gzip : a.body;
    res.writeHead(200, {
      'Content-Type': a.type,
      'Content-Length': body.length,
      'Cache-Control': a.cache,
      Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bundleBytes: { raw: bundle.length, gzip: assets.get('/app.js')!.gzip.length },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
