// A server under test in its own process (issue 23): the service (`service`, configured by the environment
// record in BENCH_SERVER_ENV, as loadConfig reads it) or the framework floor (`floor`, bench/floor-app.ts).
// Both are started the same way by bench/servers.ts, with the same Node flags, so neither shares a JavaScript
// thread, a heap or a garbage collector with the benchmark, the other server or the load generator, and the
// service's CPU time and resident set read from /proc are its own. Over IPC: `ready` with the port once
// listening; `profile` start/stop (BENCH_PROFILE: a V8 CPU profile of this process for one run); `close`.
import inspector from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';

export type ServerMessage =
  | { cmd: 'profile-start'; id: number }
  | { cmd: 'profile-stop'; id: number; path: string }
  | { cmd: 'close'; id: number };

const kind = process.argv[2];
const send = (m: unknown) => process.send?.(m);
// the benchmark went away (ended or crashed): so does this server
process.on('disconnect', () => process.exit(0));

// each kind imports only its own modules: the floor's process must not hold the service's module graph
// (its heap would be the service's size, and its garbage collector would pay for it)
let app: INestApplication;
if (kind === 'floor') app = await (await import('./floor-app.js')).createFloorApp();
else if (kind === 'service') {
  const [{ createApp }, { loadConfig }] = await Promise.all([
    import('../src/app/app.factory.js'),
    import('../src/app/config.js'),
  ]);
  app = await createApp(loadConfig(JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}') as NodeJS.ProcessEnv));
} else throw new Error(`server-process: unknown kind ${kind}`);
await app.listen(0, '127.0.0.1');

const session = new inspector.Session();
session.connect();
const post = (method: string) =>
  new Promise<unknown>((resolve, reject) =>
    session.post(method, (err, res) => (err ? reject(err) : resolve(res))),
  );

process.on('message', (m: ServerMessage) => {
  const reply = (extra: Record<string, unknown> = {}) => send({ id: m.id, ...extra });
  const fail = (err: unknown) => reply({ error: (err as Error).message });
  if (m.cmd === 'profile-start') {
    post('Profiler.enable')
      .then(() => post('Profiler.start'))
      .then(() => reply(), fail);
  } else if (m.cmd === 'profile-stop') {
    post('Profiler.stop').then((res) => {
      mkdirSync(dirname(m.path), { recursive: true });
      writeFileSync(m.path, JSON.stringify((res as { profile: unknown }).profile));
      reply();
    }, fail);
  } else if (m.cmd === 'close') {
    app.close().then(
      () => {
        reply();
        process.exit(0);
      },
      (err: unknown) => {
        fail(err);
        process.exit(1);
      },
    );
  }
});
send({ ready: (app.getHttpServer().address() as AddressInfo).port });
