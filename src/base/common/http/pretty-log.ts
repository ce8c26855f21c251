import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line has, or that the line's head already shows. */
const SHOWN = new Set(['level', 'time', 'service', 'context', 'msg', 'pid', 'hostname']);

/**
 * A human-readable rendering of pino's JSON lines, for a terminal (LOG_FORMAT=pretty, or a TTY with no
 * LOG_FORMAT): `14:03:07 INFO  [Context] message  key=value …`. In-process and synchronous (pino-pretty's
 * transport runs in a worker thread and can lose the last lines at exit); redaction happened before, in pino.
 */
export function prettyStream(out: NodeJS.WritableStream = process.stdout, colour = true): DestinationStream {
  return {
    write(line: string) {
      out.write(`${formatLine(line, colour)}\n`);
    },
  };
}

export function formatLine(line: string, colour = false): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.trimEnd();
  }
  const level = Number(o.level);
  const time = new Date(Number(o.time) || Date.now()).toISOString().slice(11, 19);
  const name = (LEVELS[level] ?? String(o.level)).padEnd(5);
  const head = colour ? `\x1b[${COLOURS[level] ?? '0'}m${name}\x1b[0m` : name;
  const context = typeof o.context === 'string' ? ` [${o.context}]` : '';
  const rest = Object.entries(o)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const msg = typeof o.msg === 'string' ? ` ${o.msg}` : '';
  return `${time} ${head}${context}${msg}${rest ? `  ${rest}` : ''}`;
}
