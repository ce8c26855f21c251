import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The first port the kernel hands out for port 0 and for outgoing connections (Linux; 32768 elsewhere, below
 * every system's default).
 */
export function ephemeralPortsFrom(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    if (Number.isInteger(first) && first > 12_000) return first;
  } catch {
    // not Linux
  }
  return 32768;
}

/** A random port in the 10,000 below the ephemeral range (not checked: callers listen and retry). */
export function portBelowEphemeralRange(): number {
  return ephemeralPortsFrom() - 1 - Math.floor(Math.random() * 10_000);
}

/**
 * A free port for a process started next (the service in a child process, which binds it seconds later),
 * below the kernel's ephemeral range: the servers other suites open on port 0 (supertest opens one per
 * request) and every outgoing connection's local port come from that range, so none of them can take it in
 * between, as they could take a port the kernel handed out for port 0 and that was closed again.
 */
export async function freePortBelowEphemeralRange(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const port = portBelowEphemeralRange();
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below the ephemeral range');
}
