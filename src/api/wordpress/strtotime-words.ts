// The words strtotime() knows (strtotime.ts reads them): fixed-offset zone abbreviations, month
// and weekday names, relative text ("next", "last", "third") and the units of relative times.

/** Fixed-offset abbreviations PHP understands inside date strings (a small subset of timelib's table). */
export const ABBR_OFFSETS: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  ut: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  cest: 120,
  met: 60,
  mest: 120,
  eet: 120,
  eest: 180,
  msk: 180,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  akst: -540,
  akdt: -480,
  hst: -600,
  ast: -240,
  adt: -180,
  nst: -210,
  ndt: -150,
  aest: 600,
  aedt: 660,
  acst: 570,
  acdt: 630,
  awst: 480,
  nzst: 720,
  nzdt: 780,
  jst: 540,
  kst: 540,
  hkt: 480,
  sast: 120,
};

export const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
export const WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
};
export const RELTEXT: Record<string, [amount: number, behavior: number]> = {
  first: [1, 0],
  next: [1, 0],
  second: [2, 0],
  third: [3, 0],
  fourth: [4, 0],
  fifth: [5, 0],
  sixth: [6, 0],
  seventh: [7, 0],
  eight: [8, 0],
  eighth: [8, 0],
  ninth: [9, 0],
  tenth: [10, 0],
  eleventh: [11, 0],
  twelfth: [12, 0],
  last: [-1, 0],
  previous: [-1, 0],
  this: [0, 1],
};

export type Unit = 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'ms';
export function unitOf(word: string): [Unit, number] | [number] | null {
  const w = word.toLowerCase();
  if (w in WEEKDAYS) return [WEEKDAYS[w]];
  switch (w) {
    case 'ms':
    case 'msec':
    case 'msecs':
    case 'millisecond':
    case 'milliseconds':
      return ['ms', 1];
    case 'sec':
    case 'secs':
    case 'second':
    case 'seconds':
      return ['s', 1];
    case 'min':
    case 'mins':
    case 'minute':
    case 'minutes':
      return ['i', 1];
    case 'hour':
    case 'hours':
      return ['h', 1];
    case 'day':
    case 'days':
      return ['d', 1];
    case 'week':
    case 'weeks':
      return ['d', 7];
    case 'fortnight':
    case 'fortnights':
    case 'forthnight':
    case 'forthnights':
      return ['d', 14];
    case 'month':
    case 'months':
      return ['m', 1];
    case 'year':
    case 'years':
      return ['y', 1];
  }
  return null;
}
