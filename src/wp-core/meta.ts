// The `meta` of a /wp/v2/tribe_events post: every key the plugin registers with show_in_rest
// (its block editor's meta, registered for the post object type as a whole, then the event
// status keys registered for events), in registration order, with core's defaults for what an
// event does not store ('' for a string, false for a boolean, [] for a list).

import type { EventRecord } from '../engine/records.ts';

const STRING_KEYS_AFTER_LINKS = [
  '_OrganizerEmail',
  '_OrganizerPhone',
  '_OrganizerWebsite',
  '_VenueAddress',
  '_VenueCity',
  '_VenueCountry',
  '_VenueProvince',
  '_VenueState',
  '_VenueZip',
  '_VenuePhone',
  '_VenueURL',
  '_VenueStateProvince',
  '_VenueLat',
  '_VenueLng',
];

export function eventMeta(e: EventRecord): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    _EventAllDay: e.allDay,
    _EventTimezone: e.timezone,
    _EventStartDate: e.startLocal,
    _EventEndDate: e.endLocal,
    _EventStartDateUTC: e.startUtc,
    _EventEndDateUTC: e.endUtc,
    _EventShowMap: e.showMap,
    _EventShowMapLink: e.showMapLink,
    _EventURL: e.website ?? '',
    _EventCost: e.costs[0] ?? '',
    _EventCostDescription: '',
    _EventCurrencySymbol: e.currencySymbol,
    _EventCurrencyCode: e.currencyCode,
    _EventCurrencyPosition: e.currencyPosition,
    _EventDateTimeSeparator: '',
    _EventTimeRangeSeparator: '',
    _EventOrganizerID: [...e.organizerIds],
    _EventVenueID: [...e.venueIds],
  };
  for (const key of STRING_KEYS_AFTER_LINKS) meta[key] = '';
  meta._VenueShowMap = false;
  meta._VenueShowMapLink = false;
  meta._tribe_events_status = '';
  meta._tribe_events_status_reason = '';
  return meta;
}
