import net from 'node:net';

/** Loopback only: nothing started by the tests is reachable from another machine. */
export const E2E_HOST = '127.0.0.1';

/**
 * Asks the OS for a free TCP port on `host` (listen on port 0, read the port, close).
 * The port is free when this resolves; a server that loses the race to it fails with
 * EADDRINUSE, which `startNextServer` handles by trying another port.
 */
export function getFreePort(host: string = E2E_HOST): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error(`could not read the port of a listener on ${host}`));
        return;
      }
      const { port } = address;
      server.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}
