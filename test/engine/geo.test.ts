import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.ts';
import { haversineKm, searchBoxes, VenueGeo } from '../../src/engine/geo.ts';
import type { VenueRecord } from '../../src/engine/records.ts';
import { makeEvent, makeVenue } from './build.ts';

// ---
const Geo = suite('geo');

Geo('geo :: haversine on the 6371.0088 km sphere', () => {
  assert.ok(Math.abs(haversineKm(0, 0, 0, 1) - (6371.0088 * Math.PI) / 180) < 1e-9);
  assert.ok(Math.abs(haversineKm(51.5, -0.12, 48.85, 2.35) - 343.5) < 1);
  assert.is(haversineKm(10, 20, 10, 20), 0);
  assert.ok(Math.abs(haversineKm(90, 0, -90, 0) - Math.PI * 6371.0088) < 1e-6);
});

function geoOf(venues: VenueRecord[]): VenueGeo {
  return new VenueGeo(() => venues);
}

Geo('geo :: the venues inside come once each, ids ascending, whatever the index order', () => {
  // ids far from their points' order, and a circle across the antimeridian (two boxes)
  const venues: VenueRecord[] = [];
  for (let i = 0; i < 300; i++)
    venues.push(
      makeVenue(1000 + ((i * 7919) % 300) * 3, { geoLat: (i % 20) * 0.01, geoLng: i % 2 ? 179.99 : -179.99 }),
    );
  const got = geoOf(venues).withinRadius(0.1, 180, 100);
  const want = venues.map((v) => v.id).sort((a, b) => a - b);
  assert.equal(got, want);
});

Geo('geo :: a venue exactly on the radius is inside', () => {
  const venues = [makeVenue(1, { geoLat: 40, geoLng: -74 }), makeVenue(2, { geoLat: 40.5, geoLng: -73.2 })];
  const g = geoOf(venues);
  const d = haversineKm(40, -74, 40.5, -73.2);
  assert.equal(g.withinRadius(40, -74, d), [1, 2]);
  assert.equal(g.withinRadius(40, -74, d * (1 - 1e-12)), [1]);
  assert.equal(g.withinRadius(40, -74, 0), [1]);
});

Geo('geo :: across the antimeridian', () => {
  const venues = [
    makeVenue(1, { geoLat: 0, geoLng: 179.9 }),
    makeVenue(2, { geoLat: 0, geoLng: -179.9 }),
    makeVenue(3, { geoLat: 0, geoLng: 170 }),
  ];
  const g = geoOf(venues);
  assert.equal(g.withinRadius(0, 179.95, 20), [1, 2]);
  assert.equal(g.withinRadius(0, -179.99, 30), [1, 2]);
  assert.is(searchBoxes(0, 179.95, 20).length, 2);
});

Geo('geo :: near the poles every longitude is searched', () => {
  const venues = [
    makeVenue(1, { geoLat: 89.9, geoLng: 0 }),
    makeVenue(2, { geoLat: 89.9, geoLng: 180 }),
    makeVenue(3, { geoLat: 80, geoLng: 90 }),
  ];
  const g = geoOf(venues);
  const d = haversineKm(89.9, 0, 89.9, 180);
  assert.equal(g.withinRadius(89.9, 0, d), [1, 2]);
  assert.equal(g.withinRadius(89.9, 0, 25000), [1, 2, 3]);
});

Geo('geo :: venues without coordinates are never hits; rebuilt after writes', () => {
  const venues = [makeVenue(1), makeVenue(2, { geoLat: 1, geoLng: 1 })];
  const g = geoOf(venues);
  assert.equal(Array.from(g.venuesWithCoords()), [2]);
  assert.equal(g.withinRadius(0, 0, 20000), [2]);
  venues[0] = makeVenue(1, { geoLat: 1, geoLng: 1 });
  assert.equal(g.withinRadius(0, 0, 20000), [2]);
  g.markDirty();
  assert.equal(g.withinRadius(0, 0, 20000), [1, 2]);
  assert.equal(geoOf([]).withinRadius(0, 0, 100), []);
});

Geo('geo :: engine queries: radius and has-coords over event venues', () => {
  const e = new Engine();
  e.apply([
    { t: 'venue', a: 'put', rec: makeVenue(1, { geoLat: 40, geoLng: -74 }) },
    { t: 'venue', a: 'put', rec: makeVenue(2) },
    { t: 'venue', a: 'put', rec: makeVenue(3, { geoLat: 48.85, geoLng: 2.35 }) },
    { t: 'event', a: 'put', rec: makeEvent(10, { venueIds: [1] }) },
    { t: 'event', a: 'put', rec: makeEvent(11, { venueIds: [2] }) },
    { t: 'event', a: 'put', rec: makeEvent(12, { venueIds: [] }) },
    { t: 'event', a: 'put', rec: makeEvent(13, { venueIds: [2, 3] }) },
  ]);
  const ids = (geo: NonNullable<Parameters<Engine['query']>[0]['geo']>) =>
    e.query({ statusMask: 1, offset: 0, limit: 10, geo }).rows.map((r) => e.eventId(r));
  assert.equal(ids({ kind: 'has-coords', value: true }), [10, 13]);
  assert.equal(ids({ kind: 'has-coords', value: false }), [11, 12]);
  assert.equal(ids({ kind: 'radius', lat: 40.1, lng: -74, radiusKm: 12 }), [10]);
  assert.equal(ids({ kind: 'radius', lat: 48.85, lng: 2.35, radiusKm: 0 }), [13]);
  // moving a venue rebuilds the index on the next geo query
  e.apply([{ t: 'venue', a: 'put', rec: makeVenue(1, { geoLat: 48.85, geoLng: 2.36 }) }]);
  assert.equal(ids({ kind: 'radius', lat: 48.85, lng: 2.35, radiusKm: 1 }), [10, 13]);
});

Geo.run();
