import { Injectable } from '@nestjs/common';

/** The service's notion of now. Expiry rules read it, so tests can move time (e.g. the 60 s code limit). */
@Injectable()
export class Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  /** Tests only: shift the clock forward. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}
