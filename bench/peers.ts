// The oidc-provider peers of the benchmark, each in its own process like the service's load generator:
// bench/oidc-peer.mjs (self-contained JWTs in process memory) and bench/oidc-durable-peer.mjs (opaque
// tokens and rotating refresh tokens, one row each in the same PostgreSQL, introspection; issue 23 item 1).
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface Peer {
  /** http://127.0.0.1:<port> */
  base: string;
  pid?: number;
  stop: () => void;
}

async function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const p = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

/** Starts `bench/<script>` with the port first and then `args`; resolves when it prints `ready`. */
export async function startPeer(script: string, args: string[]): Promise<Peer> {
  const port = await freePort();
  const path = fileURLToPath(new URL(`../../bench/${script}`, import.meta.url));
  const child = spawn(process.execPath, [path, String(port), ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill() };
}
