import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { formatLine, prettyStream } from './pretty-log.js';
import { REDACT_PATHS } from './request-logging.js';

describe('pretty log lines', () => {
  it('time, level, context, message, then the other fields', () => {
    const line = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 0, 2, 3, 4, 5),
      service: 'portcullis',
      context: 'Mail',
      msg: 'retrying',
      attempt: 2,
      req: { id: 'r1' },
    });
    expect(formatLine(line)).toBe('03:04:05 WARN  [Mail] retrying  attempt=2 req={"id":"r1"}');
  });

  it('a line that is not JSON is passed through', () => {
    expect(formatLine('plain text\n')).toBe('plain text');
  });

  it('redaction happens before: a password never reaches the pretty line', () => {
    const out: string[] = [];
    const logger = pino(
      { redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      prettyStream({ write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream, false),
    );
    logger.info({ body: { password: 'hunter2-secret' } }, 'signing in');
    expect(out.join('')).toContain('[redacted]');
    expect(out.join('')).not.toContain('hunter2-secret');
  });
});
