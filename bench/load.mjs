// Load worker for the benchmark, run as a child process: node bench/load.mjs '<json config>'.
// Prints autocannon's JSON summary. With `chain`, every connection follows its own refresh-token chain:
// refresh tokens are single-use, so each request must carry the one the previous response returned.
import autocannon from 'autocannon';

const cfg = JSON.parse(process.argv[2]);
const options = {
  url: cfg.url,
  method: cfg.method ?? 'GET',
  headers: cfg.headers ?? {},
  body: cfg.body,
  connections: cfg.connections,
  duration: cfg.duration,
};
if (cfg.chain) {
  // A shared queue, not autocannon's per-connection context (which resets after every request when there is
  // one request template): each response hands back its new refresh token, each request takes one. With one
  // request in flight per connection and as many tokens as connections, every token is used exactly once.
  const queue = [...cfg.chain.initial];
  options.requests = [
    {
      setupRequest(req) {
        const rt = queue.shift() ?? 'chain-broken';
        return { ...req, body: `${cfg.chain.body}&refresh_token=${encodeURIComponent(rt)}` };
      },
      onResponse(status, body) {
        if (status === 200) queue.push(JSON.parse(body).refresh_token);
      },
    },
  ];
}
if (cfg.bodies) {
  // one body after another (a different search word per request)
  let next = 0;
  options.requests = [{ setupRequest: (req) => ({ ...req, body: cfg.bodies[next++ % cfg.bodies.length] }) }];
}
const result = await autocannon(options);
process.stdout.write(JSON.stringify(result));
