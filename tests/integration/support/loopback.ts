import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A server on a free loopback port standing in for an upstream: `baseUrl` is shaped like the Portal's. */
export async function loopbackServer(handler: RequestListener) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1/`,
    /** Drops kept-alive connections too, so an afterAll never waits for them. */
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
