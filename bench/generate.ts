// Seeded synthetic calendar in the import shape (docs/import-export.md):
// { categories, tags, venues, organizers, events }, ids kept, events referring to venues,
// organizers and terms by id. Same (events, seed, now) → the same calendar, record for record.
//
// The mix imitates a busy multi-city calendar: ~3 years of events around `now`, mostly 1–3 h,
// some all-day, multi-day and a few long ones; ~20 IANA zones; venues clustered around 30 real
// cities (a few without coordinates); nested categories; Zipf-skewed tags and description words;
// mostly published, with drafts, pending, private and future posts; a few accented words so
// accent-folded search has something to fold.

import { mulberry32 } from './stats.ts';
import type {
  ImportCalendar,
  ImportCalendar as ImportData,
  ImportCategory,
  ImportEvent,
  ImportOrganizer,
  ImportTag,
  ImportVenue,
} from '../src/import/index.ts';

export type { ImportCalendar as ImportData, ImportCategory, ImportEvent, ImportOrganizer, ImportTag, ImportVenue };

export interface GenerateOptions {
  events: number;
  seed: number;
  now: Date;
}

interface City {
  name: string;
  lat: number;
  lng: number;
  tz: string;
  country: string;
  state?: string;
  province?: string;
  weight: number;
}

// Real coordinates (city centre) and zones. weight = how many venues cluster there, relatively.
const CITIES: City[] = [
  {
    name: 'New York',
    lat: 40.7128,
    lng: -74.006,
    tz: 'America/New_York',
    country: 'United States',
    state: 'NY',
    weight: 10,
  },
  {
    name: 'Boston',
    lat: 42.3601,
    lng: -71.0589,
    tz: 'America/New_York',
    country: 'United States',
    state: 'MA',
    weight: 3,
  },
  {
    name: 'Chicago',
    lat: 41.8781,
    lng: -87.6298,
    tz: 'America/Chicago',
    country: 'United States',
    state: 'IL',
    weight: 6,
  },
  {
    name: 'Austin',
    lat: 30.2672,
    lng: -97.7431,
    tz: 'America/Chicago',
    country: 'United States',
    state: 'TX',
    weight: 3,
  },
  {
    name: 'Denver',
    lat: 39.7392,
    lng: -104.9903,
    tz: 'America/Denver',
    country: 'United States',
    state: 'CO',
    weight: 2,
  },
  {
    name: 'Phoenix',
    lat: 33.4484,
    lng: -112.074,
    tz: 'America/Phoenix',
    country: 'United States',
    state: 'AZ',
    weight: 2,
  },
  {
    name: 'Los Angeles',
    lat: 34.0522,
    lng: -118.2437,
    tz: 'America/Los_Angeles',
    country: 'United States',
    state: 'CA',
    weight: 7,
  },
  {
    name: 'San Francisco',
    lat: 37.7749,
    lng: -122.4194,
    tz: 'America/Los_Angeles',
    country: 'United States',
    state: 'CA',
    weight: 5,
  },
  {
    name: 'Seattle',
    lat: 47.6062,
    lng: -122.3321,
    tz: 'America/Los_Angeles',
    country: 'United States',
    state: 'WA',
    weight: 3,
  },
  {
    name: 'Honolulu',
    lat: 21.3069,
    lng: -157.8583,
    tz: 'Pacific/Honolulu',
    country: 'United States',
    state: 'HI',
    weight: 1,
  },
  {
    name: 'Vancouver',
    lat: 49.2827,
    lng: -123.1207,
    tz: 'America/Vancouver',
    country: 'Canada',
    province: 'BC',
    weight: 3,
  },
  { name: 'Toronto', lat: 43.6532, lng: -79.3832, tz: 'America/Toronto', country: 'Canada', province: 'ON', weight: 4 },
  {
    name: 'Montréal',
    lat: 45.5019,
    lng: -73.5674,
    tz: 'America/Toronto',
    country: 'Canada',
    province: 'QC',
    weight: 3,
  },
  { name: 'Mexico City', lat: 19.4326, lng: -99.1332, tz: 'America/Mexico_City', country: 'Mexico', weight: 3 },
  { name: 'São Paulo', lat: -23.5558, lng: -46.6396, tz: 'America/Sao_Paulo', country: 'Brazil', weight: 3 },
  {
    name: 'Buenos Aires',
    lat: -34.6037,
    lng: -58.3816,
    tz: 'America/Argentina/Buenos_Aires',
    country: 'Argentina',
    weight: 2,
  },
  { name: 'London', lat: 51.5074, lng: -0.1278, tz: 'Europe/London', country: 'United Kingdom', weight: 9 },
  { name: 'Dublin', lat: 53.3498, lng: -6.2603, tz: 'Europe/Dublin', country: 'Ireland', weight: 2 },
  { name: 'Paris', lat: 48.8566, lng: 2.3522, tz: 'Europe/Paris', country: 'France', weight: 7 },
  { name: 'Berlin', lat: 52.52, lng: 13.405, tz: 'Europe/Berlin', country: 'Germany', weight: 5 },
  { name: 'Amsterdam', lat: 52.3676, lng: 4.9041, tz: 'Europe/Amsterdam', country: 'Netherlands', weight: 3 },
  { name: 'Madrid', lat: 40.4168, lng: -3.7038, tz: 'Europe/Madrid', country: 'Spain', weight: 3 },
  { name: 'Rome', lat: 41.9028, lng: 12.4964, tz: 'Europe/Rome', country: 'Italy', weight: 3 },
  { name: 'Zürich', lat: 47.3769, lng: 8.5417, tz: 'Europe/Zurich', country: 'Switzerland', weight: 2 },
  { name: 'Athens', lat: 37.9838, lng: 23.7275, tz: 'Europe/Athens', country: 'Greece', weight: 2 },
  { name: 'Istanbul', lat: 41.0082, lng: 28.9784, tz: 'Europe/Istanbul', country: 'Türkiye', weight: 2 },
  { name: 'Johannesburg', lat: -26.2041, lng: 28.0473, tz: 'Africa/Johannesburg', country: 'South Africa', weight: 2 },
  { name: 'Dubai', lat: 25.2048, lng: 55.2708, tz: 'Asia/Dubai', country: 'United Arab Emirates', weight: 2 },
  { name: 'Mumbai', lat: 19.076, lng: 72.8777, tz: 'Asia/Kolkata', country: 'India', weight: 3 },
  { name: 'Singapore', lat: 1.3521, lng: 103.8198, tz: 'Asia/Singapore', country: 'Singapore', weight: 3 },
  { name: 'Tokyo', lat: 35.6762, lng: 139.6503, tz: 'Asia/Tokyo', country: 'Japan', weight: 5 },
  { name: 'Sydney', lat: -33.8688, lng: 151.2093, tz: 'Australia/Sydney', country: 'Australia', weight: 4 },
  { name: 'Auckland', lat: -36.8485, lng: 174.7633, tz: 'Pacific/Auckland', country: 'New Zealand', weight: 2 },
];

/** Zones of the cities plus a few for events without a venue (online events). */
const EXTRA_ZONES = ['UTC', 'Europe/Lisbon', 'Asia/Seoul'];

// Top-level categories and their children; a child given as [name, grandchildren] nests a third level.
const CATEGORY_TREE: [string, (string | [string, string[]])[]][] = [
  ['Music', [['Concerts', ['Jazz', 'Classical', 'Rock']], 'Festivals', 'Open Mic', 'Opera']],
  ['Arts', [['Exhibitions', ['Photography', 'Sculpture']], 'Theatre', 'Dance', 'Film']],
  ['Food & Drink', ['Tastings', 'Cooking Classes', 'Markets']],
  ['Sports', ['Running', 'Cycling', 'Yoga']],
  ['Business', [['Conferences', ['Tech', 'Finance']], 'Networking', 'Workshops']],
  ['Community', ['Volunteering', 'Meetups', 'Family']],
  ['Education', ['Lectures', 'Language Exchange']],
  ['Outdoors', ['Hiking', 'Gardening']],
];

const TOPICS = [
  'Jazz',
  'Pottery',
  'Watercolour',
  'Python',
  'Startup',
  'Wine',
  'Cheese',
  'Bread',
  'Sushi',
  'Tango',
  'Salsa',
  'Poetry',
  'Chess',
  'Robotics',
  'Astronomy',
  'Birdwatching',
  'Photography',
  'Film',
  'Theatre',
  'Opera',
  'Ballet',
  'Marathon',
  'Cycling',
  'Yoga',
  'Meditation',
  'Gardening',
  'Beekeeping',
  'Coffee',
  'Craft Beer',
  'Vinyl',
  'Comics',
  'Fashion',
  'Design',
  'Architecture',
  'History',
  'Science',
  'Mathematics',
  'Climate',
  'Startup Pitch',
  'Blockchain',
  'Data',
  'Typography',
  'Calligraphy',
  'Knitting',
  'Woodworking',
  'Ceramics',
  'Crème Brûlée',
  'Café',
  'Fiesta',
  'Soirée',
  'Flamenco',
  'Piñata',
  'Smørrebrød',
  'Naïve Art',
  'Über Techno',
  'Improv',
  'Stand-up',
  'Trivia',
  'Karaoke',
  'Salsa Verde',
];
const KINDS = [
  'Workshop',
  'Night',
  'Festival',
  'Meetup',
  'Class',
  'Masterclass',
  'Talk',
  'Tour',
  'Fair',
  'Market',
  'Gala',
  'Concert',
  'Party',
  'Retreat',
  'Summit',
  'Showcase',
  'Marathon',
  'Brunch',
  'Screening',
  'Exhibition',
];
const ADJECTIVES = [
  'Annual',
  'Late',
  'Summer',
  'Winter',
  'Spring',
  'Autumn',
  'Grand',
  'Little',
  'Open',
  'Community',
  'Family',
  'Midnight',
  'Sunday',
  'Friday',
  'International',
  'Local',
  'Beginner',
  'Advanced',
  'Pop-up',
  'Secret',
];
// Description vocabulary, most common first (drawn with a Zipf distribution).
const WORDS = (
  'join us for an evening of music and conversation with friends old and new at the heart of the city ' +
  'tickets include a welcome drink light snacks and a guided introduction doors open early so arrive in good time ' +
  'our hosts bring years of experience and a love for sharing ideas everyone is welcome regardless of level ' +
  'bring your questions your curiosity and comfortable shoes seating is limited and registration is recommended ' +
  'this season we celebrate local artists makers growers brewers bakers dancers and storytellers from across the region ' +
  'expect live demonstrations hands-on stations tasting tables and a small market with handmade goods ' +
  'proceeds support the neighbourhood library youth programs and the community garden ' +
  'accessible venue step-free entrance quiet room available children under twelve free with an adult ' +
  'café résumé naïve soirée crème brûlée fiancé jalapeño piñata über façade déjà vu exposé rendezvous ' +
  'pottery wheel glaze kiln watercolour canvas easel sketchbook charcoal typography letterpress ' +
  'telescope nebula eclipse meteor orbit algorithm dataset robotics sensor prototype ' +
  'vineyard sommelier espresso sourdough fermentation harvest orchard foraging mushroom beekeeping'
).split(/\s+/);
const STREETS = [
  'Main Street',
  'High Street',
  'Market Square',
  'Harbour Road',
  'Rue du Temple',
  'Avenue des Arts',
  'Kingsway',
  'Elm Street',
  'Station Road',
  'Calle Mayor',
  'Via Roma',
  'Hauptstraße',
];
const VENUE_NOUNS = [
  'Hall',
  'Theatre',
  'Gallery',
  'Loft',
  'Studio',
  'Warehouse',
  'Garden',
  'Library',
  'Arena',
  'Club',
  'Centre',
  'Pavilion',
  'Brewery',
  'Café',
];
const VENUE_ADJ = [
  'Old',
  'Blue',
  'Grand',
  'Riverside',
  'Union',
  'Velvet',
  'Copper',
  'Royal',
  'Harbour',
  'Green',
  'North',
  'Lantern',
];
const ORG_FIRST = ['Friends of', 'The', 'Society for', 'Collective of', 'Association of', 'Club'];
const ORG_NOUNS = [
  'Music',
  'Arts',
  'Makers',
  'Runners',
  'Readers',
  'Gardeners',
  'Coders',
  'Foodies',
  'Dancers',
  'Film Lovers',
  'Historians',
  'Astronomers',
];

const DAY_MS = 86_400_000;

/** Cumulative-weight sampler for a Zipf(s) distribution over n ranks. */
function zipfSampler(n: number, s: number, rand: () => number): () => number {
  const cum = new Float64Array(n);
  let acc = 0;
  for (let k = 0; k < n; k++) {
    acc += 1 / (k + 1) ** s;
    cum[k] = acc;
  }
  return () => {
    const x = rand() * acc;
    // first k with cum[k] > x
    let lo = 0,
      hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

function weightedSampler(weights: number[], rand: () => number): () => number {
  const cum: number[] = [];
  let acc = 0;
  for (const w of weights) {
    acc += w;
    cum.push(acc);
  }
  return () => {
    const x = rand() * acc;
    let i = 0;
    while (cum[i] <= x) i++;
    return i;
  };
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** naive ms (wall clock read as UTC) → 'Y-m-d H:i:s' */
export function formatNaive(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

export function slugify(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Build the calendar. Post ids (venues, organizers, events) share one space, term ids another. */
export function generateCalendar(opts: GenerateOptions): ImportData {
  const events: ImportEvent[] = [];
  const rest = streamCalendar(opts, (ev) => {
    events.push(ev);
  });
  return { ...rest, events };
}

/**
 * The calendar of generateCalendar with its events handed to `onEvent` one by one as they are
 * made (none kept), after `onLists` got the other lists: what writes the import file of ten
 * million events without holding them.
 */
export function streamCalendar(
  opts: GenerateOptions,
  onEvent: (ev: ImportEvent) => void,
  onLists?: (lists: Omit<ImportData, 'events'>) => void,
): Omit<ImportData, 'events'> {
  const n = Math.max(0, Math.floor(opts.events));
  const rand = mulberry32(opts.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const nowMs = opts.now.getTime();
  // the site is UTC: naive "now" = real now
  const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const pastDate = (maxDaysBack: number) => formatNaive(nowMs - Math.floor(rand() * maxDaysBack * DAY_MS));

  // ---- terms ----------------------------------------------------------------------------
  let termId = 1;
  const categories: ImportCategory[] = [];
  const addCat = (name: string, parent: number): number => {
    const id = termId++;
    categories.push({ id, name, slug: slugify(name), description: `${name} events around the world.`, parent });
    return id;
  };
  for (const [top, children] of CATEGORY_TREE) {
    const topId = addCat(top, 0);
    for (const child of children) {
      if (typeof child === 'string') addCat(child, topId);
      else {
        const childId = addCat(child[0], topId);
        for (const g of child[1]) addCat(g, childId);
      }
    }
  }
  const hasChild = new Set(categories.map((c) => c.parent));
  const leafCats = categories.filter((c) => !hasChild.has(c.id));

  const tags: ImportTag[] = [];
  const tagWords = [
    'free',
    'outdoor',
    'indoor',
    'kids',
    'family',
    'beginner',
    'advanced',
    'evening',
    'weekend',
    'online',
    'hybrid',
    'accessible',
    'pet-friendly',
    'vegan',
    'live',
    'seasonal',
    'charity',
    'students',
    'seniors',
    'networking',
  ];
  for (let i = 0; i < 100; i++) {
    const base = i < tagWords.length ? tagWords[i] : `${pick(TOPICS).toLowerCase()} ${tagWords[i % tagWords.length]}`;
    const name = i < tagWords.length ? base : `${base} ${i}`;
    tags.push({ id: termId++, name, slug: slugify(name), description: '' });
  }

  // ---- posts: venues, organizers, events share one id space ----------------------------
  let postId = 1;
  const numVenues = Math.max(50, Math.round(n / 500));
  const numOrganizers = Math.max(20, Math.round(n / 1000));
  const pickCity = weightedSampler(
    CITIES.map((c) => c.weight),
    rand,
  );
  const venues: ImportVenue[] = [];
  const venueCity: City[] = [];
  for (let i = 0; i < numVenues; i++) {
    const city = CITIES[i < CITIES.length ? i : pickCity()]; // every city gets at least one venue
    const name = `${pick(VENUE_ADJ)} ${pick(VENUE_NOUNS)} ${city.name}`;
    const id = postId++;
    const v: ImportVenue = {
      id,
      author: int(1, 5),
      status: rand() < 0.95 ? 'publish' : 'draft',
      date: pastDate(2000),
      venue: name,
      description: `A ${pick(['cosy', 'spacious', 'historic', 'modern'])} venue in ${city.name}.`,
      slug: `${slugify(name)}-${id}`,
      address: `${int(1, 250)} ${pick(STREETS)}`,
      city: city.name,
      state: city.state ?? '',
      province: city.province ?? '',
      country: city.country,
      zip: String(int(10000, 99999)),
      phone: `+1 555 ${int(100, 999)} ${int(1000, 9999)}`,
      website: `https://venue${id}.example.org`,
      show_map: true,
      show_map_link: rand() < 0.9,
    };
    if (rand() >= 0.04) {
      // clustered within ~15 km of the centre (triangular spread)
      v.geo_lat = Math.round((city.lat + (rand() - rand()) * 0.14) * 1e6) / 1e6;
      v.geo_lng = Math.round((city.lng + (rand() - rand()) * 0.2) * 1e6) / 1e6;
    }
    venues.push(v);
    venueCity.push(city);
  }

  const organizers: ImportOrganizer[] = [];
  for (let i = 0; i < numOrganizers; i++) {
    const id = postId++;
    const name = `${pick(ORG_FIRST)} ${pick(ORG_NOUNS)} ${i + 1}`;
    organizers.push({
      id,
      author: int(1, 5),
      status: rand() < 0.95 ? 'publish' : 'draft',
      date: pastDate(2000),
      organizer: name,
      description: `${name} has organised gatherings since ${int(1990, 2020)}.`,
      slug: `${slugify(name)}-${id}`,
      phone: `+44 20 ${int(1000, 9999)} ${int(1000, 9999)}`,
      email: `hello${id}@example.org`,
      website: `https://org${id}.example.org`,
    });
  }

  const wordRank = zipfSampler(WORDS.length, 0.8, rand);
  const tagRank = zipfSampler(tags.length, 1.1, rand);
  const venueRank = zipfSampler(numVenues, 0.6, rand);
  const orgRank = zipfSampler(numOrganizers, 0.7, rand);
  const zones = [...new Set([...CITIES.map((c) => c.tz), ...EXTRA_ZONES])];
  const sentence = (min: number, max: number) => {
    const k = int(min, max);
    const ws: string[] = [];
    for (let i = 0; i < k; i++) ws.push(WORDS[wordRank()]);
    return capitalize(ws.join(' ')) + '.';
  };

  onLists?.({ categories, tags, venues, organizers });
  const spanDays = 548;
  let firstEventId = 0; // ~1.5 years each side of now
  for (let i = 0; i < n; i++) {
    const id = postId++;
    if (i === 0) firstEventId = id;
    const venueIdx = rand() < 0.9 ? venueRank() : -1;
    const tz = venueIdx >= 0 ? venueCity[venueIdx].tz : pick(zones);
    const dayMs = todayMs + (int(0, 2 * spanDays) - spanDays) * DAY_MS;

    // times are naive local wall clock in `tz`, chosen away from DST transition hours
    let startMs: number,
      endMs: number,
      allDay = false;
    const shape = rand();
    if (shape < 0.7) {
      // 1–3 h
      startMs = dayMs + int(8, 21) * 3_600_000 + int(0, 3) * 900_000;
      endMs = startMs + int(2, 6) * 1_800_000;
    } else if (shape < 0.75) {
      // short
      startMs = dayMs + int(8, 20) * 3_600_000 + int(0, 3) * 900_000;
      endMs = startMs + int(2, 3) * 900_000;
    } else if (shape < 0.85) {
      // all-day, sometimes over 2–3 days
      allDay = true;
      startMs = dayMs;
      endMs = dayMs + (rand() < 0.75 ? 0 : int(1, 2)) * DAY_MS + 86_399_000;
    } else if (shape < 0.97) {
      // multi-day, 2–10 days
      startMs = dayMs + int(9, 18) * 3_600_000;
      endMs = dayMs + int(1, 9) * DAY_MS + int(10, 20) * 3_600_000;
    } else {
      // long: exhibitions, seasons
      startMs = dayMs + 10 * 3_600_000;
      endMs = dayMs + int(30, 120) * DAY_MS + 18 * 3_600_000;
    }

    const r = rand();
    const status = r < 0.88 ? 'publish' : r < 0.91 ? 'future' : r < 0.95 ? 'draft' : r < 0.975 ? 'pending' : 'private';
    const published =
      status === 'future'
        ? nowMs + int(1, 60) * DAY_MS + int(0, 86_399) * 1000
        : Math.min(nowMs - int(0, 86_399) * 1000, startMs - int(1, 120) * DAY_MS + int(0, 86_399) * 1000);

    const topic = pick(TOPICS);
    const title = `${rand() < 0.6 ? pick(ADJECTIVES) + ' ' : ''}${topic} ${pick(KINDS)}`;
    const cats: number[] = [];
    const cr = rand();
    if (cr < 0.9) cats.push(pick(leafCats).id);
    if (cr < 0.2) {
      const c = pick(categories).id;
      if (!cats.includes(c)) cats.push(c);
    }
    const tagIds: number[] = [];
    const numTags = int(0, 4);
    for (let k = 0; k < numTags; k++) {
      const t = tags[tagRank()].id;
      if (!tagIds.includes(t)) tagIds.push(t);
    }
    const orgs: number[] = [];
    const or = rand();
    if (or < 0.7) orgs.push(organizers[orgRank()].id);
    if (or < 0.15) {
      const o = organizers[orgRank()].id;
      if (!orgs.includes(o)) orgs.push(o);
    }
    const costR = rand();
    const cost =
      costR < 0.3
        ? ''
        : costR < 0.45
          ? '0'
          : costR < 0.9
            ? String(int(1, 20) * 5)
            : `${int(1, 4) * 5} - ${int(5, 12) * 5}`;

    const ev: ImportEvent = {
      id,
      author: int(1, 5),
      status,
      date: formatNaive(published),
      title,
      description:
        `${sentence(6, 14)} ${topic} ${pick(KINDS).toLowerCase()} ${sentence(4, 10)} ${rand() < 0.5 ? sentence(5, 12) : ''}`.trim(),
      excerpt: rand() < 0.6 ? sentence(4, 9) : '',
      slug: `${slugify(title)}-${id}`,
      timezone: tz,
      all_day: allDay,
      start_date: formatNaive(startMs),
      end_date: formatNaive(endMs),
      cost,
      website: rand() < 0.5 ? `https://tickets.example.com/e/${id}` : '',
      show_map: rand() < 0.95,
      show_map_link: rand() < 0.9,
      hide_from_listings: rand() < 0.02,
      sticky: rand() < 0.01,
      featured: rand() < 0.05,
      ticketed: rand() < 0.1,
      categories: cats,
      tags: tagIds,
      venue: venueIdx >= 0 ? venues[venueIdx].id : 0,
      organizer: orgs,
    };
    // ~1% are recurrence children of a recent earlier event
    if (i > 10 && rand() < 0.01) ev.post_parent = firstEventId + i - int(1, 10);
    // stringifying flattens the record's concatenated (cons) strings in place: the calendar
    // then holds flat strings, as one parsed from JSON would, and the rope nodes become garbage now
    if (JSON.stringify(ev).length === 0) throw new Error('unreachable');
    onEvent(ev);
  }
  return { categories, tags, venues, organizers };
}
