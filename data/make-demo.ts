// Generates data/demo.json, the demo calendar `calendar-engine serve` seeds into an empty store.
// Deterministic (seeded mulberry32): running it again gives the same file.
//   node --import tsx data/make-demo.ts [BASE_MONDAY]     (default 2026-01-05)
// Dates are relative to BASE_MONDAY; src/cli/seed.ts shifts them to the current week at seed time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 } from '../bench/stats.ts';
import type {
  DemoFile,
  ImportCategory,
  ImportEvent,
  ImportOrganizer,
  ImportTag,
  ImportVenue,
} from '../src/cli/seed.ts';

const BASE = process.argv[2] ?? '2026-01-05';
const DAYS = 126; // 18 weeks of events
const AUTHOR = 1;

const rand = mulberry32(20260105);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const chance = (p: number): boolean => rand() < p;

const baseMs = Date.UTC(Number(BASE.slice(0, 4)), Number(BASE.slice(5, 7)) - 1, Number(BASE.slice(8, 10)));
if (new Date(baseMs).getUTCDay() !== 1) throw new Error(`base ${BASE} is not a Monday`);
function day(offset: number, time = '00:00:00'): string {
  return new Date(baseMs + offset * 86_400_000).toISOString().slice(0, 10) + ' ' + time;
}

const slugs = new Set<string>();
function slugify(text: string): string {
  const base = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let slug = base;
  for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
  slugs.add(slug);
  return slug;
}

// ---- terms: categories (nested) then tags, one term id space ---------------------------------

const categories: ImportCategory[] = [];
const catId = new Map<string, number>();
function category(name: string, description: string, parent = ''): number {
  const id = categories.length + 1;
  categories.push({ id, name, slug: slugify(name), description, parent: parent ? catId.get(parent)! : 0 });
  catId.set(name, id);
  return id;
}
category('Music', 'Concerts, gigs and recitals.');
category('Jazz', 'From trios to big bands.', 'Music');
category('Classical', 'Orchestras, chamber music and opera.', 'Music');
category('Rock & Pop', 'Bands and singer-songwriters.', 'Music');
category('Electronic', 'DJ sets and live electronics.', 'Music');
category('Sports', 'Races, rides and matches.');
category('Running', 'Fun runs, 10Ks and marathons.', 'Sports');
category('Cycling', 'Group rides and races.', 'Sports');
category('Arts & Culture', 'Stage, screen and gallery.');
category('Theatre', 'Plays, musicals and improv.', 'Arts & Culture');
category('Film', 'Screenings and festivals.', 'Arts & Culture');
category('Exhibitions', 'Galleries and museum shows.', 'Arts & Culture');
category('Community', 'Neighbourhood gatherings.');
category('Workshops', 'Learn something hands-on.', 'Community');
category('Markets', 'Farmers, flea and craft markets.', 'Community');
category('Food & Drink', 'Tastings, dinners and food festivals.');
category('Technology', 'Meetups and conferences.');
category('Meetups', 'Evening talks and networking.', 'Technology');
category('Conferences', 'Multi-day conferences.', 'Technology');

const tags: ImportTag[] = [];
const tagId = new Map<string, number>();
for (const [name, description] of [
  ['Family Friendly', 'Good for all ages.'],
  ['Free', 'No ticket needed.'],
  ['Outdoor', 'Bring a jacket.'],
  ['21+', 'Photo ID required.'],
  ['Live Music', ''],
  ['Accessible', 'Step-free access.'],
  ['Charity', 'Proceeds go to a good cause.'],
  ['Beginners', 'No experience needed.'],
  ['Weekend', ''],
  ['Evening', ''],
  ['Festival', ''],
  ['Hands-on', ''],
  ['Networking', ''],
  ['Kids', 'Made for children.'],
  ['Sold Out Soon', 'Selling fast.'],
] as const) {
  const id = categories.length + tags.length + 1;
  tags.push({ id, name, slug: slugify(name), description });
  tagId.set(name, id);
}

// ---- posts: venues, organizers, events share one post id space -----------------------------

let nextPostId = 1;
function pubDate(): string {
  return day(
    -Math.floor(7 + rand() * 60),
    `${String(8 + Math.floor(rand() * 10)).padStart(2, '0')}:${pick(['00', '15', '30', '45'])}:00`,
  );
}

type VenueSeed = [
  name: string,
  address: string,
  city: string,
  state: string,
  province: string,
  country: string,
  zip: string,
  phone: string,
  website: string,
  lat: number,
  lng: number,
  zone: string,
  kind: 'club' | 'hall' | 'park' | 'arena' | 'centre',
];
const venueSeeds: VenueSeed[] = [
  [
    'Blue Note Jazz Club',
    '131 W 3rd St',
    'New York',
    'NY',
    '',
    'United States',
    '10012',
    '+1 212-475-8592',
    'https://www.bluenotejazz.com/nyc/',
    40.7309,
    -74.0005,
    'America/New_York',
    'club',
  ],
  [
    'Carnegie Hall',
    '881 7th Ave',
    'New York',
    'NY',
    '',
    'United States',
    '10019',
    '+1 212-247-7800',
    'https://www.carnegiehall.org/',
    40.7651,
    -73.9799,
    'America/New_York',
    'hall',
  ],
  [
    'Central Park Bandshell',
    'Central Park Mall, Terrace Dr',
    'New York',
    'NY',
    '',
    'United States',
    '10024',
    '+1 212-310-6600',
    'https://www.centralparknyc.org/',
    40.7712,
    -73.9712,
    'America/New_York',
    'park',
  ],
  [
    'Massey Hall',
    '178 Victoria St',
    'Toronto',
    '',
    'ON',
    'Canada',
    'M5B 1T7',
    '+1 416-872-4255',
    'https://masseyhall.com/',
    43.654,
    -79.379,
    'America/Toronto',
    'hall',
  ],
  [
    'Symphony Center',
    '220 S Michigan Ave',
    'Chicago',
    'IL',
    '',
    'United States',
    '60604',
    '+1 312-294-3000',
    'https://cso.org/',
    41.879,
    -87.6247,
    'America/Chicago',
    'hall',
  ],
  [
    'Grant Park Lakefront',
    '337 E Randolph St',
    'Chicago',
    'IL',
    '',
    'United States',
    '60601',
    '+1 312-742-7529',
    'https://www.chicagoparkdistrict.com/',
    41.8826,
    -87.619,
    'America/Chicago',
    'park',
  ],
  [
    'The Fillmore',
    '1805 Geary Blvd',
    'San Francisco',
    'CA',
    '',
    'United States',
    '94115',
    '+1 415-346-6000',
    'https://www.fillmore.com/',
    37.784,
    -122.433,
    'America/Los_Angeles',
    'club',
  ],
  [
    'Golden Gate Park Polo Field',
    '1232 John F Kennedy Dr',
    'San Francisco',
    'CA',
    '',
    'United States',
    '94122',
    '+1 415-831-2700',
    'https://goldengatepark.com/',
    37.768,
    -122.492,
    'America/Los_Angeles',
    'park',
  ],
  [
    'Moscone Center',
    '747 Howard St',
    'San Francisco',
    'CA',
    '',
    'United States',
    '94103',
    '+1 415-974-4000',
    'https://www.moscone.com/',
    37.784,
    -122.401,
    'America/Los_Angeles',
    'centre',
  ],
  [
    'Royal Albert Hall',
    'Kensington Gore',
    'London',
    '',
    'Greater London',
    'United Kingdom',
    'SW7 2AP',
    '+44 20 7589 8212',
    'https://www.royalalberthall.com/',
    51.5009,
    -0.1774,
    'Europe/London',
    'hall',
  ],
  [
    "Ronnie Scott's",
    '47 Frith St',
    'London',
    '',
    'Greater London',
    'United Kingdom',
    'W1D 4HT',
    '+44 20 7439 0747',
    'https://www.ronniescotts.co.uk/',
    51.5136,
    -0.1318,
    'Europe/London',
    'club',
  ],
  [
    'Philharmonie de Paris',
    '221 Avenue Jean Jaurès',
    'Paris',
    '',
    'Île-de-France',
    'France',
    '75019',
    '+33 1 44 84 44 84',
    'https://philharmoniedeparis.fr/',
    48.892,
    2.3937,
    'Europe/Paris',
    'hall',
  ],
  [
    'Tempodrom',
    'Möckernstraße 10',
    'Berlin',
    '',
    'Berlin',
    'Germany',
    '10963',
    '+49 30 74737370',
    'https://www.tempodrom.de/',
    52.5013,
    13.3808,
    'Europe/Berlin',
    'arena',
  ],
  [
    'Tokyo International Forum',
    '3-5-1 Marunouchi, Chiyoda City',
    'Tokyo',
    '',
    'Tokyo',
    'Japan',
    '100-0005',
    '+81 3-5221-9000',
    'https://www.t-i-forum.co.jp/en/',
    35.6766,
    139.7638,
    'Asia/Tokyo',
    'centre',
  ],
  [
    'Sydney Opera House',
    'Bennelong Point',
    'Sydney',
    '',
    'NSW',
    'Australia',
    '2000',
    '+61 2 9250 7111',
    'https://www.sydneyoperahouse.com/',
    -33.8568,
    151.2153,
    'Australia/Sydney',
    'hall',
  ],
];
const venues: ImportVenue[] = venueSeeds.map(
  ([name, address, city, state, province, country, zip, phone, website, lat, lng]) => ({
    id: nextPostId++,
    author: AUTHOR,
    status: 'publish',
    date: pubDate(),
    venue: name,
    slug: slugify(name),
    description: `<p>${name} in ${city}.</p>`,
    address,
    city,
    country,
    province,
    state,
    zip,
    phone,
    website,
    show_map: true,
    show_map_link: true,
    geo_lat: lat,
    geo_lng: lng,
  }),
);

const organizerSeeds: Array<[string, string, string, string]> = [
  ['Downtown Jazz Society', '+1 212-555-0142', 'hello@downtownjazz.example.org', 'https://downtownjazz.example.org/'],
  ['City Philharmonic Friends', '+1 312-555-0188', 'tickets@cityphil.example.org', 'https://cityphil.example.org/'],
  [
    'Riverside Runners Club',
    '+1 415-555-0117',
    'run@riversiderunners.example.org',
    'https://riversiderunners.example.org/',
  ],
  ['Open Source Meetup Collective', '+44 20 7946 0321', 'team@osmeetup.example.org', 'https://osmeetup.example.org/'],
  ['Neighbourhood Markets Co-op', '+1 416-555-0166', 'stalls@nbmarkets.example.org', 'https://nbmarkets.example.org/'],
  ['Festival des Lumières', '+33 1 70 36 39 50', 'contact@lumieres.example.fr', 'https://lumieres.example.fr/'],
  ['Kiez Kultur Berlin', '+49 30 5557 1200', 'info@kiezkultur.example.de', 'https://kiezkultur.example.de/'],
  ['Harbour Arts Trust', '+61 2 5550 1234', 'events@harbourarts.example.org.au', 'https://harbourarts.example.org.au/'],
  ['Tokyo Tech Events', '+81 3-5550-7788', 'hello@tokyotech.example.jp', 'https://tokyotech.example.jp/'],
  ['Greenway Cycling League', '+1 773-555-0199', 'ride@greenway.example.org', 'https://greenway.example.org/'],
];
const organizers: ImportOrganizer[] = organizerSeeds.map(([name, phone, email, website]) => ({
  id: nextPostId++,
  author: AUTHOR,
  status: 'publish',
  date: pubDate(),
  organizer: name,
  slug: slugify(name),
  description: `<p>${name} organises events all year round.</p>`,
  phone,
  email,
  website,
}));
const orgId = (name: string): number => organizers.find((o) => o.organizer === name)!.id;

// ---- events -----------------------------------------------------------------------------------

type Kind = {
  category: string;
  titles: string[];
  venueKinds: VenueSeed[12][];
  organizer: string[];
  tags: string[];
  /** start times (local) and length in minutes */
  times: string[];
  minutes: number[];
  shape: 'timed' | 'all-day' | 'multi-day';
  cost: () => string;
  weight: number;
};
const money = (lo: number, hi: number) => () => String(lo + 5 * Math.floor(rand() * ((hi - lo) / 5 + 1)));
const kinds: Kind[] = [
  {
    category: 'Jazz',
    titles: [
      'Late Night Jazz Session',
      'Big Band Swing Night',
      'Piano Trio Evening',
      'Latin Jazz Live',
      'Vocal Jazz Showcase',
    ],
    venueKinds: ['club'],
    organizer: ['Downtown Jazz Society'],
    tags: ['Live Music', 'Evening', '21+'],
    times: ['19:30:00', '21:00:00', '22:30:00'],
    minutes: [90, 120],
    shape: 'timed',
    cost: money(20, 45),
    weight: 14,
  },
  {
    category: 'Classical',
    titles: [
      "Beethoven's Ninth",
      'Mozart Piano Concertos',
      'Mahler Symphony No. 5',
      'Baroque Chamber Evening',
      'Brahms and Dvořák',
      'Organ Recital',
    ],
    venueKinds: ['hall'],
    organizer: ['City Philharmonic Friends', 'Festival des Lumières', 'Harbour Arts Trust'],
    tags: ['Live Music', 'Evening', 'Accessible'],
    times: ['19:30:00', '20:00:00', '15:00:00'],
    minutes: [120, 150],
    shape: 'timed',
    cost: () => `${pick([25, 35, 45])} - ${pick([90, 120, 150])}`,
    weight: 14,
  },
  {
    category: 'Rock & Pop',
    titles: ['Indie Night', 'Singer-Songwriter Showcase', 'Tribute Night: The Beatles', 'New Bands Night'],
    venueKinds: ['club', 'arena'],
    organizer: ['Kiez Kultur Berlin', 'Downtown Jazz Society'],
    tags: ['Live Music', 'Evening'],
    times: ['20:00:00', '21:00:00'],
    minutes: [180],
    shape: 'timed',
    cost: money(15, 60),
    weight: 8,
  },
  {
    category: 'Electronic',
    titles: ['Warehouse Sessions', 'Ambient Sunday', 'Modular Synth Night'],
    venueKinds: ['arena', 'club'],
    organizer: ['Kiez Kultur Berlin'],
    tags: ['21+', 'Evening'],
    times: ['22:00:00', '23:00:00'],
    minutes: [300, 360],
    shape: 'timed',
    cost: money(10, 30),
    weight: 5,
  },
  {
    category: 'Running',
    titles: ['Saturday Park Run 5K', 'Charity 10K', 'Sunrise Trail Run', 'Half Marathon Training Run'],
    venueKinds: ['park'],
    organizer: ['Riverside Runners Club'],
    tags: ['Outdoor', 'Free', 'Beginners', 'Charity', 'Weekend'],
    times: ['07:00:00', '08:00:00', '09:00:00'],
    minutes: [60, 120],
    shape: 'timed',
    cost: () => pick(['Free', 'Free', '15', '25']),
    weight: 9,
  },
  {
    category: 'Cycling',
    titles: ['Lakefront Group Ride', 'Critical Mass Evening Ride', 'Century Ride'],
    venueKinds: ['park'],
    organizer: ['Greenway Cycling League'],
    tags: ['Outdoor', 'Free', 'Weekend'],
    times: ['08:00:00', '18:30:00'],
    minutes: [120, 240],
    shape: 'timed',
    cost: () => 'Free',
    weight: 5,
  },
  {
    category: 'Theatre',
    titles: ['Improv Comedy Night', 'A Midsummer Night’s Dream', 'New Writing Festival', 'Musical Theatre Gala'],
    venueKinds: ['hall', 'centre'],
    organizer: ['Harbour Arts Trust', 'Festival des Lumières'],
    tags: ['Evening', 'Accessible'],
    times: ['19:00:00', '19:30:00', '14:30:00'],
    minutes: [120, 150],
    shape: 'timed',
    cost: money(20, 80),
    weight: 8,
  },
  {
    category: 'Film',
    titles: ['Outdoor Cinema: Classics', 'Documentary Night', 'Short Film Festival'],
    venueKinds: ['park', 'centre'],
    organizer: ['Kiez Kultur Berlin', 'Harbour Arts Trust'],
    tags: ['Outdoor', 'Family Friendly', 'Festival'],
    times: ['19:00:00', '20:30:00'],
    minutes: [150],
    shape: 'timed',
    cost: () => pick(['Free', '8', '12']),
    weight: 5,
  },
  {
    category: 'Exhibitions',
    titles: ['Photography Exhibition', 'Modern Design Retrospective', 'Young Artists Showcase'],
    venueKinds: ['centre', 'hall'],
    organizer: ['Harbour Arts Trust', 'Festival des Lumières'],
    tags: ['Family Friendly', 'Accessible'],
    times: [],
    minutes: [],
    shape: 'multi-day',
    cost: money(0, 20),
    weight: 4,
  },
  {
    category: 'Workshops',
    titles: [
      'Pottery for Beginners',
      'Intro to Watercolour',
      'Bike Repair Basics',
      'Sourdough Baking Class',
      'Kids Coding Club',
    ],
    venueKinds: ['centre'],
    organizer: ['Neighbourhood Markets Co-op', 'Open Source Meetup Collective'],
    tags: ['Hands-on', 'Beginners', 'Kids'],
    times: ['10:00:00', '14:00:00', '18:00:00'],
    minutes: [120, 180],
    shape: 'timed',
    cost: money(15, 60),
    weight: 7,
  },
  {
    category: 'Markets',
    titles: ['Farmers Market', 'Flea Market', 'Holiday Craft Fair', 'Night Market'],
    venueKinds: ['park'],
    organizer: ['Neighbourhood Markets Co-op'],
    tags: ['Outdoor', 'Free', 'Family Friendly', 'Weekend'],
    times: [],
    minutes: [],
    shape: 'all-day',
    cost: () => 'Free',
    weight: 9,
  },
  {
    category: 'Food & Drink',
    titles: ['Wine Tasting Evening', 'Street Food Festival', 'Craft Beer Weekend', 'Chef’s Table Dinner'],
    venueKinds: ['park', 'centre', 'club'],
    organizer: ['Neighbourhood Markets Co-op', 'Festival des Lumières'],
    tags: ['21+', 'Festival', 'Weekend'],
    times: ['18:00:00', '12:00:00'],
    minutes: [180, 240],
    shape: 'timed',
    cost: money(20, 95),
    weight: 6,
  },
  {
    category: 'Meetups',
    titles: [
      'TypeScript Meetup',
      'Open Source Hack Night',
      'Data Engineering Talks',
      'Startup Pitch Night',
      'Women in Tech Meetup',
    ],
    venueKinds: ['centre'],
    organizer: ['Open Source Meetup Collective', 'Tokyo Tech Events'],
    tags: ['Networking', 'Free', 'Evening'],
    times: ['18:30:00', '19:00:00'],
    minutes: [120, 150],
    shape: 'timed',
    cost: () => 'Free',
    weight: 7,
  },
  {
    category: 'Conferences',
    titles: ['Cloud Native Summit', 'Web Performance Conference', 'Future of Cities Forum'],
    venueKinds: ['centre'],
    organizer: ['Tokyo Tech Events', 'Open Source Meetup Collective'],
    tags: ['Networking', 'Sold Out Soon'],
    times: ['09:00:00'],
    minutes: [],
    shape: 'multi-day',
    cost: () => pick(['299', '399 - 899', '150']),
    weight: 3,
  },
];
const totalWeight = kinds.reduce((s, k) => s + k.weight, 0);
function pickKind(): Kind {
  let r = rand() * totalWeight;
  for (const k of kinds) if ((r -= k.weight) < 0) return k;
  return kinds[kinds.length - 1];
}

function addMinutes(date: string, minutes: number): string {
  const ms =
    Date.UTC(
      Number(date.slice(0, 4)),
      Number(date.slice(5, 7)) - 1,
      Number(date.slice(8, 10)),
      Number(date.slice(11, 13)),
      Number(date.slice(14, 16)),
    ) +
    minutes * 60_000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const events: ImportEvent[] = [];
function addEvent(
  kind: Kind,
  title: string,
  venue: ImportVenue | undefined,
  zone: string,
  start: string,
  end: string,
  allDay: boolean,
): void {
  const featured = chance(0.1);
  const subset = kind.tags.filter(() => chance(0.5));
  const website = chance(0.3) ? `https://tickets.example.com/${slugify(title + ' ' + start.slice(0, 10))}` : '';
  if (website) slugs.delete(website.slice(website.lastIndexOf('/') + 1));
  const cost = kind.cost();
  const where = venue ? ` at ${venue.venue}, ${venue.city}` : ' online';
  events.push({
    id: nextPostId++,
    author: AUTHOR,
    status: 'publish',
    date: pubDate(),
    title,
    slug: slugify(title),
    description: `<p>${title}${where}.</p><p>${pick(['Doors open 30 minutes before the start.', 'Bring friends!', 'Limited capacity; book early.', 'Step-free access at the main entrance.'])}</p>`,
    excerpt: `${title}${where}.`,
    timezone: zone,
    all_day: allDay,
    start_date: start,
    end_date: end,
    cost: cost === '0' ? 'Free' : cost,
    website,
    show_map: venue !== undefined,
    show_map_link: venue !== undefined,
    hide_from_listings: false,
    sticky: featured && chance(0.3),
    featured,
    ticketed: cost !== 'Free' && cost !== '0' && chance(0.6),
    categories: [catId.get(kind.category)!],
    tags: subset.map((t) => tagId.get(t)!),
    venue: venue?.id ?? 0,
    organizer: [orgId(pick(kind.organizer))],
  });
}

const venueIndex = (name: string) => venues[venueSeeds.findIndex((v) => v[0] === name)];

// weekly series: keep the calendar lively every week
for (let week = 0; week < DAYS / 7; week++) {
  const jam = kinds[0];
  addEvent(
    jam,
    'Tuesday Jazz Jam',
    venueIndex('Blue Note Jazz Club'),
    'America/New_York',
    day(week * 7 + 1, '20:00:00'),
    day(week * 7 + 1, '23:00:00'),
    false,
  );
  const run = kinds[4];
  addEvent(
    run,
    'Saturday Park Run 5K',
    venueIndex('Central Park Bandshell'),
    'America/New_York',
    day(week * 7 + 5, '08:00:00'),
    day(week * 7 + 5, '09:00:00'),
    false,
  );
  if (week % 2 === 0) {
    addEvent(
      kinds[10],
      'Sunday Farmers Market',
      venueIndex('Grant Park Lakefront'),
      'America/Chicago',
      day(week * 7 + 6),
      day(week * 7 + 6, '23:59:59'),
      true,
    );
  }
}

// one-off events spread over the weeks
while (events.length < 320) {
  const kind = pickKind();
  const candidates = venues.filter((_, i) => kind.venueKinds.includes(venueSeeds[i][12]));
  const online = kind.category === 'Meetups' && chance(0.2);
  const venue = online ? undefined : pick(candidates);
  const zone = venue ? venueSeeds[venues.indexOf(venue)][11] : pick(['UTC', 'America/New_York', 'Europe/London']);
  const offset = Math.floor(rand() * DAYS);
  const title = pick(kind.titles);
  if (kind.shape === 'all-day') {
    addEvent(kind, title, venue, zone, day(offset), day(offset, '23:59:59'), true);
  } else if (kind.shape === 'multi-day') {
    const length = 1 + Math.floor(rand() * (kind.category === 'Exhibitions' ? 20 : 3));
    if (kind.times.length > 0) {
      addEvent(kind, title, venue, zone, day(offset, kind.times[0]), day(offset + length, '17:00:00'), false);
    } else {
      addEvent(kind, title, venue, zone, day(offset), day(offset + length, '23:59:59'), true);
    }
  } else {
    const start = day(offset, pick(kind.times));
    addEvent(kind, title, venue, zone, start, addMinutes(start, pick(kind.minutes)), false);
  }
}

// a few drafts and pending events (only logged-in editors see them), one hidden from listings
for (const [i, status] of [
  [17, 'draft'],
  [58, 'draft'],
  [99, 'draft'],
  [140, 'pending'],
  [201, 'draft'],
  [260, 'pending'],
] as const) {
  events[i].status = status;
  events[i].featured = false;
  events[i].sticky = false;
}
events[77].hide_from_listings = true;

events.sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id));

const out: DemoFile = { base_date: BASE, categories, tags, venues, organizers, events };
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo.json');
fs.writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
const count = (f: (e: ImportEvent) => boolean) => events.filter(f).length;
console.log(
  `wrote ${path.relative(process.cwd(), target)}: ${events.length} events (${count((e) => e.all_day)} all-day, ` +
    `${count((e) => e.start_date.slice(0, 10) !== e.end_date.slice(0, 10))} multi-day, ${count((e) => e.featured)} featured, ` +
    `${count((e) => e.status !== 'publish')} not published), ${venues.length} venues, ${organizers.length} organizers, ` +
    `${categories.length} categories, ${tags.length} tags`,
);
