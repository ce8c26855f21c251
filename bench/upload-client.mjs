// The client side of the upload benchmark (bench/upload-bench.ts), in a process of its own so that the RSS
// the benchmark samples is the service's alone: sends <source> to the resumable upload session <url> in
// chunks of <chunk> bytes (Content-Range, one PUT each, as a client of this API family does: one chunk in
// flight, the next sent once the 308 of the last arrived, over one kept-alive connection as HTTP clients keep
// them) and prints {"ok": …, "seconds": …} on stdout.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import http from 'node:http';

const [url, source, chunkArg] = process.argv.slice(2);
const target = new URL(url);
const chunkSize = Number(chunkArg);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function put(headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method: 'PUT', headers, agent }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const input = openSync(source, 'r');
const size = fstatSync(input).size;
const chunk = Buffer.alloc(chunkSize);
let ok = true;
const started = process.hrtime.bigint();
try {
  for (let offset = 0; offset < size; offset += chunkSize) {
    const n = readSync(input, chunk, 0, Math.min(chunkSize, size - offset), offset);
    const res = await put(
      { 'Content-Range': `bytes ${offset}-${offset + n - 1}/${size}`, 'Content-Length': String(n) },
      chunk.subarray(0, n),
    );
    if (res.status !== (offset + n === size ? 200 : 308)) {
      console.error(`upload: chunk at ${offset} answered ${res.status} ${res.text}`);
      ok = false;
      break;
    }
  }
} finally {
  closeSync(input);
  agent.destroy();
}
process.stdout.write(JSON.stringify({ ok, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
