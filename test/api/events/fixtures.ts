// What the event write tests share: the plugin's own HTTP tests' fixtures (its generated fields
// with wrong values, its four inline venues, its bad images), an attachment as an upload leaves
// it, and small readers of a representation. Clock: Wednesday 2026-03-04 15:00 UTC (helpers NOW):
// 10:00 EST in New York (EDT from 2026-03-08), 06:00 AKST in Juneau, Thursday 02:00 AEDT in
// Sydney, Thursday 00:30 ACST in Darwin, 16:00 CET in Rome/Paris.
import * as assert from 'uvu/assert';
import { baseEvent } from '../../helpers/calendar.ts';
import type { Calendar } from '../../../src/calendar.ts';
import type { Params } from '../../../src/api/wordpress/types.ts';

export type Obj = Record<string, unknown>;

export const ROOT = 'http://example.com/wp-json/tribe/events/v1/';
export const JPG_URL = 'http://example.com/wp-content/uploads/2026/03/uploaded.jpg';
export const BAD_IMAGES: unknown[] = ['http://example.localhost/some-image.png', 'foo bar', 23];

/** An attachment as an upload to the media library leaves it (the plugin's fixtures upload files directly). */
export function addAttachment(cal: Calendar, url: string, extension: string): number {
  const id = cal.engine.allocPostId();
  cal.engine.apply([
    {
      t: 'attachment',
      a: 'put',
      rec: { id, authorId: 0, url, extension, date: '2026-03-04 15:00:00', dateUtc: '2026-03-04 15:00:00' },
    },
  ]);
  return id;
}

export const ids = (xs: unknown) => (xs as Array<{ id: number }>).map((x) => x.id);
export const names = (xs: unknown) => (xs as Array<{ name: string }>).map((x) => x.name);
export const imageOf = (x: unknown) => (x as { image: { id: number; url: string; extension: string } | false }).image;

/** The plugin tests' generated (read-only) fields with plausible but wrong values. */
export const GENERATED: Params = {
  url: 'http://example.com/event/bogus/',
  rest_url: 'http://example.com/wp-json/tribe/events/v1/events/9999',
  utc_start_date: '2030-01-01 00:00:00',
  utc_start_date_details: { year: '2030', month: '01', day: '01', hour: '00', minutes: '00', seconds: '00' },
  utc_end_date: '2030-01-01 02:00:00',
  utc_end_date_details: { year: '2030', month: '01', day: '01', hour: '02', minutes: '00', seconds: '00' },
  start_date_details: { year: '2030', month: '01', day: '01', hour: '00', minutes: '00', seconds: '00' },
  end_date_details: { year: '2030', month: '01', day: '01', hour: '02', minutes: '00', seconds: '00' },
  timezone_abbr: 'XYZ',
  cost_details: { currency_symbol: '€', currency_code: 'EUR', currency_position: 'prefix', values: ['99'] },
};

/** What the generated fields must be for baseEvent (2026-03-05 09:00–11:00) in a UTC site, no cost. */
export function assertGenerated(ev: Obj): void {
  for (const k of Object.keys(GENERATED)) assert.not.equal(ev[k], GENERATED[k], k);
  assert.is(ev.url, 'http://example.com/event/an-event/');
  assert.is(ev.rest_url, `${ROOT}events/${ev.id}`);
  assert.is(ev.utc_start_date, '2026-03-05 09:00:00');
  assert.is(ev.utc_end_date, '2026-03-05 11:00:00');
  assert.equal(ev.utc_start_date_details, {
    year: '2026',
    month: '03',
    day: '05',
    hour: '09',
    minutes: '00',
    seconds: '00',
  });
  assert.equal(ev.utc_end_date_details, {
    year: '2026',
    month: '03',
    day: '05',
    hour: '11',
    minutes: '00',
    seconds: '00',
  });
  assert.equal(ev.start_date_details, ev.utc_start_date_details);
  assert.equal(ev.end_date_details, ev.utc_end_date_details);
  assert.is(ev.timezone_abbr, 'UTC');
  assert.equal(ev.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
}

/** The plugin tests' four inline venues (US, Canada, South Africa, France). */
export const INLINE_VENUES: Obj[] = [
  {
    venue: 'White House',
    address: '1600 Pennsylvania Ave NW',
    city: 'Washington',
    country: 'United States',
    state: 'DC',
    province: '',
    stateProvince: 'DC',
    zip: '20500',
    phone: '+1 202-456-1111',
    description: 'Home and office of the United States president',
    website: 'http://www.whitehouse.gov',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Parliament Hill',
    address: '111 Wellington St',
    city: 'Ottawa',
    country: 'Canada',
    state: '',
    province: 'Ontario',
    stateProvince: 'Ontario',
    zip: 'K1A 0A9',
    phone: '+1 613-992-4793',
    description: 'Home of the Parliament of Canada',
    website: 'http://www.parl.gc.ca',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Union Buildings',
    address: 'Government Avenue',
    city: 'Pretoria',
    country: 'South Africa',
    state: '',
    province: 'Gauteng',
    stateProvince: 'Gauteng',
    zip: '0002',
    phone: '+27 12 300 5200',
    description: 'Official seat of the South African government',
    website: 'http://www.gov.za',
    show_map: true,
    show_map_link: true,
  },
  {
    venue: 'Palais de l‘Élysée',
    address: '55 Rue du Faubourg Saint-Honoré',
    city: 'Paris',
    country: 'France',
    state: '',
    province: 'Île-de-France',
    stateProvince: 'Île-de-France',
    zip: '75008',
    phone: '+33 1 42 92 81 00',
    description: 'Official residence of the President of France',
    website: 'http://www.elysee.fr',
    show_map: true,
    show_map_link: true,
  },
];

export function assertInlineVenue(got: unknown, sent: Obj): void {
  const v = got as Obj;
  assert.type(v.id, 'number', `${sent.venue as string} id`);
  assert.is(v.venue, sent.venue);
  for (const k of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website']) {
    if (sent[k] === '') assert.not.ok(k in v, `${k} empty → absent`);
    else assert.is(v[k], sent[k], `${sent.venue as string} ${k}`);
  }
  assert.is(v.stateprovince, sent.stateProvince);
  assert.is(v.description, `<p>${sent.description as string}</p>`);
  assert.is(v.show_map, true);
  assert.is(v.show_map_link, true);
}

/** The update target: a published event by the site administrator, plus extra fields. */
export async function fixture(cal: Calendar, extra: Params = {}, as?: string): Promise<number> {
  return (await cal.events.create({ ...baseEvent, ...extra }, as)).id as number;
}
