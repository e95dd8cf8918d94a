// schema.org Event data for the pages, from REST representations. A single event page carries
// the REST `json_ld` of that event as it is; a list carries one Event per listed event, made here
// from its list representation with the same fields.

import { plainText, summaryText } from './text.ts';

type Obj = Record<string, unknown>;

/** 'YYYY-MM-DD HH:MM:SS' local and UTC → ISO 8601 with the offset between them. */
export function isoWithOffset(local: unknown, utc: unknown): string | undefined {
  if (typeof local !== 'string' || typeof utc !== 'string') return undefined;
  const l = Date.parse(local.replace(' ', 'T') + 'Z'),
    u = Date.parse(utc.replace(' ', 'T') + 'Z');
  if (Number.isNaN(l) || Number.isNaN(u)) return undefined;
  const min = Math.round((l - u) / 60_000),
    abs = Math.abs(min);
  return `${local.replace(' ', 'T')}${min < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function drop(o: Obj): Obj {
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === '') delete o[k];
  return o;
}

export function venuePlace(v: Obj): Obj {
  return drop({
    '@type': 'Place',
    name: plainText(v.venue),
    url: v.url,
    address: drop({
      '@type': 'PostalAddress',
      streetAddress: v.address,
      addressLocality: v.city,
      addressRegion: v.stateprovince || v.state || v.province,
      postalCode: v.zip,
      addressCountry: v.country,
    }),
    telephone: v.phone,
  });
}

/** An Event from a list representation (the fields the single page's json_ld has). */
export function eventLd(ev: Obj): Obj {
  const ld: Obj = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: plainText(ev.title),
    description: summaryText(ev.excerpt || ev.description),
    url: ev.url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: isoWithOffset(ev.start_date, ev.utc_start_date),
    endDate: isoWithOffset(ev.end_date, ev.utc_end_date),
  };
  const image = ev.image as Obj | false | undefined;
  if (image && typeof image.url === 'string') ld.image = image.url;
  const venue = ev.venue as Obj | undefined;
  if (venue && typeof venue === 'object' && !Array.isArray(venue) && venue.id !== undefined)
    ld.location = venuePlace(venue);
  const orgs = Array.isArray(ev.organizer) ? (ev.organizer as Obj[]) : [];
  if (orgs.length)
    ld.organizer = orgs.map((o) =>
      drop({ '@type': 'Person', name: plainText(o.organizer), url: o.url, email: o.email, telephone: o.phone }),
    );
  const cost = ev.cost_details as { values?: string[]; currency_code?: string } | undefined;
  const price = cost?.values?.find((v) => v !== '' && Number.isFinite(Number(v)));
  if (price !== undefined)
    ld.offers = drop({
      '@type': 'Offer',
      price,
      priceCurrency: cost?.currency_code,
      url: ev.url,
      availability: 'inStock',
    });
  return drop(ld);
}
