// Record builders for engine tests (not a test file itself).
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from '../../src/engine/records.ts';

export function makeEvent(id: number, over: Partial<EventRecord> = {}): EventRecord {
  return {
    id,
    authorId: 1,
    status: 'publish',
    date: '2024-01-01 10:00:00',
    dateUtc: '2024-01-01 15:00:00',
    modified: '2024-01-01 10:00:00',
    modifiedUtc: '2024-01-01 15:00:00',
    title: `Event ${id}`,
    description: '',
    excerpt: '',
    slug: `event-${id}`,
    imageId: 0,
    timezone: 'America/New_York',
    timezoneAbbr: 'EST',
    allDay: false,
    startLocal: '2024-03-01 10:00:00',
    endLocal: '2024-03-01 12:00:00',
    startUtc: '2024-03-01 15:00:00',
    endUtc: '2024-03-01 17:00:00',
    costs: [],
    currencySymbol: '$',
    currencyPosition: 'prefix',
    currencyCode: 'USD',
    website: null,
    showMap: true,
    showMapLink: true,
    hideFromListings: false,
    sticky: false,
    featured: false,
    ticketed: false,
    venueIds: [],
    organizerIds: [],
    categoryIds: [],
    tagIds: [],
    parentId: 0,
    ...over,
  };
}

export function makeVenue(id: number, over: Partial<VenueRecord> = {}): VenueRecord {
  return {
    id,
    authorId: 1,
    status: 'publish',
    date: '2024-01-01 10:00:00',
    dateUtc: '2024-01-01 15:00:00',
    modified: '2024-01-01 10:00:00',
    modifiedUtc: '2024-01-01 15:00:00',
    title: `Venue ${id}`,
    description: '',
    excerpt: '',
    slug: `venue-${id}`,
    imageId: 0,
    address: '',
    city: '',
    country: '',
    province: '',
    state: '',
    zip: '',
    phone: '',
    stateprovince: '',
    website: '',
    showMap: true,
    showMapLink: true,
    geoLat: null,
    geoLng: null,
    ...over,
  };
}

export function makeOrganizer(id: number, over: Partial<OrganizerRecord> = {}): OrganizerRecord {
  return {
    id,
    authorId: 1,
    status: 'publish',
    date: '2024-01-01 10:00:00',
    dateUtc: '2024-01-01 15:00:00',
    modified: '2024-01-01 10:00:00',
    modifiedUtc: '2024-01-01 15:00:00',
    title: `Organizer ${id}`,
    description: '',
    excerpt: '',
    slug: `organizer-${id}`,
    imageId: 0,
    phone: '',
    email: '',
    website: '',
    ...over,
  };
}

export function makeTerm(id: number, over: Partial<TermRecord> = {}): TermRecord {
  return {
    id,
    taxonomy: 'tribe_events_cat',
    name: `Term ${id}`,
    slug: `term-${id}`,
    description: '',
    parent: 0,
    ...over,
  };
}

/** all statuses except trash and auto-draft */
export const EDITOR_MASK = 0b10011111;
export const PUBLISH_MASK = 1;
