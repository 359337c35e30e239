// Timestamps (src/packages/time_basic.rs): `timestamp()` is an instant of the host's monotonic
// clock; `elapsed` and the difference of two are FLOAT seconds; adding seconds moves it (a FLOAT
// in whole milliseconds, an INT in whole seconds, as Rust's Duration::from_millis / from_secs).
import { arithmeticError } from '../errors.ts';
import { RhaiFloat, RhaiTimestamp, type RhaiValue } from '../values.ts';
import { NO_MATCH, type Library } from './types.ts';

/** Milliseconds on a clock that never goes back (performance.now() from the page's or process's start, as an epoch time). */
export function clockNow(): number {
  return performance.timeOrigin + performance.now();
}

const I64_MAX_AS_FLOAT = 9223372036854775807;

/**
 * `timestamp ± seconds`: a FLOAT counts whole milliseconds, an INT whole seconds. Before the
 * clock's start, or beyond what a Duration holds, is ErrorArithmetic as Instant::checked_add/sub.
 */
export function shiftTimestamp(t: RhaiTimestamp, seconds: RhaiValue, subtract: boolean): RhaiTimestamp {
  let ms: number;
  if (seconds instanceof RhaiFloat) {
    const s = seconds.v;
    if (Math.abs(s) > I64_MAX_AS_FLOAT || Number.isNaN(s)) {
      throw arithmeticError(`Integer overflow for timestamp ${subtract ? 'subtract' : 'add'}: ${s}`);
    }
    ms = Math.trunc(Math.abs(s) * 1000) * Math.sign(s);
  } else ms = Number(seconds as number | bigint) * 1000;
  const result = subtract ? t.ms - ms : t.ms + ms;
  if (result < 0 || !Number.isFinite(result)) {
    const what = ms < 0 === subtract ? 'adding' : 'subtracting';
    throw arithmeticError(`Timestamp overflow when ${what} ${Math.abs(ms) / 1000} second(s)`);
  }
  return new RhaiTimestamp(result);
}

/** `t1 - t2` in FLOAT seconds (negative when t2 is later). */
export function timestampDiff(a: RhaiTimestamp, b: RhaiTimestamp): RhaiFloat {
  return new RhaiFloat((a.ms - b.ms) / 1000);
}

export const timeLib: Library = {
  timestamp: (args) => (args.length === 0 ? new RhaiTimestamp(clockNow()) : NO_MATCH),
  elapsed: ([t]) => {
    if (!(t instanceof RhaiTimestamp)) return NO_MATCH;
    const now = clockNow();
    if (t.ms > now) throw arithmeticError('Time-stamp is later than now');
    return new RhaiFloat((now - t.ms) / 1000);
  },
};
