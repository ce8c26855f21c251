import { effectiveStatus, warningMessage, DEFAULT_WARNING_MESSAGE, FROZEN_MESSAGE } from './domain-status.js';

const now = new Date('2026-11-24T12:00:00Z');
const past = new Date('2026-11-24T11:59:59Z');
const future = new Date('2026-11-24T12:00:01Z');

describe('effectiveStatus', () => {
  it('is the stored status when no date has passed', () => {
    for (const status of ['ACTIVE', 'WARNING', 'FROZEN', 'DEACTIVATED'] as const) {
      expect(effectiveStatus({ status, freeze_date: future, deactivate_date: future }, now)).toBe(status);
    }
  });
  it('freezes at freeze_date, deactivates at deactivate_date, deactivation winning', () => {
    expect(effectiveStatus({ status: 'ACTIVE', freeze_date: past, deactivate_date: null }, now)).toBe(
      'FROZEN',
    );
    expect(effectiveStatus({ status: 'WARNING', freeze_date: now, deactivate_date: null }, now)).toBe(
      'FROZEN',
    );
    expect(effectiveStatus({ status: 'ACTIVE', freeze_date: null, deactivate_date: past }, now)).toBe(
      'DEACTIVATED',
    );
    expect(effectiveStatus({ status: 'FROZEN', freeze_date: past, deactivate_date: past }, now)).toBe(
      'DEACTIVATED',
    );
  });
  it('a date never lifts a stricter status', () => {
    expect(effectiveStatus({ status: 'DEACTIVATED', freeze_date: past, deactivate_date: null }, now)).toBe(
      'DEACTIVATED',
    );
  });
});

describe('warningMessage', () => {
  it('shows the message under WARNING and FROZEN only, with defaults', () => {
    expect(warningMessage('WARNING', 'Invoice overdue')).toBe('Invoice overdue');
    expect(warningMessage('WARNING', null)).toBe(DEFAULT_WARNING_MESSAGE);
    expect(warningMessage('WARNING', '  ')).toBe(DEFAULT_WARNING_MESSAGE);
    expect(warningMessage('FROZEN', null)).toBe(FROZEN_MESSAGE);
    expect(warningMessage('ACTIVE', 'stale')).toBeNull();
    expect(warningMessage('DEACTIVATED', 'x')).toBeNull();
  });
});
