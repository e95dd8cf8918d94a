// Venue points in a Flatbush index, lazily rebuilt after venue writes (kdbush's _finished,
// Orama's isSorted). Radius search = bounding box (widened at the poles, split at the
// antimeridian) then the exact haversine check.

import Flatbush from 'flatbush';
import type { VenueRecord } from './records.ts';

export const EARTH_RADIUS_KM = 6371.0088;
const DEG = Math.PI / 180;

/** Great-circle distance in km on a sphere of radius EARTH_RADIUS_KM. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * DEG;
  const dLng = (lng2 - lng1) * DEG;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(s)));
}

export class VenueGeo {
  private dirty = true;
  private index: Flatbush | undefined;
  /** Flatbush item index → venue id */
  private venueIds = new Int32Array(0);
  private lats = new Float64Array(0);
  private lngs = new Float64Array(0);
  /** sorted ids of venues with coordinates */
  private withCoords = new Int32Array(0);

  constructor(private readonly venues: () => Iterable<VenueRecord>) {}

  markDirty(): void {
    this.dirty = true;
  }

  private build(): void {
    if (!this.dirty) return;
    const points: VenueRecord[] = [];
    for (const v of this.venues()) if (v.geoLat !== null && v.geoLng !== null) points.push(v);
    points.sort((a, b) => a.id - b.id);
    const n = points.length;
    this.venueIds = new Int32Array(n);
    this.lats = new Float64Array(n);
    this.lngs = new Float64Array(n);
    this.index = n > 0 ? new Flatbush(n) : undefined;
    for (let i = 0; i < n; i++) {
      const v = points[i];
      const at = this.index!.add(v.geoLng!, v.geoLat!, v.geoLng!, v.geoLat!);
      this.venueIds[at] = v.id;
      this.lats[at] = v.geoLat!;
      this.lngs[at] = v.geoLng!;
    }
    this.index?.finish();
    this.withCoords = Int32Array.from(points, (v) => v.id);
    this.dirty = false;
  }

  /** ids of venues with coordinates, ascending */
  venuesWithCoords(): Int32Array {
    this.build();
    return this.withCoords;
  }

  /** ids (ascending) of venues within radiusKm of (lat, lng); on the radius counts as inside. */
  withinRadius(lat: number, lng: number, radiusKm: number): number[] {
    this.build();
    const index = this.index;
    if (!index || !(radiusKm >= 0)) return [];
    const hits: number[] = [];
    const check = (i: number): boolean => haversineKm(lat, lng, this.lats[i], this.lngs[i]) <= radiusKm;
    for (const [minX, minY, maxX, maxY] of searchBoxes(lat, lng, radiusKm)) {
      for (const i of index.search(minX, minY, maxX, maxY, check)) hits.push(this.venueIds[i]);
    }
    // a typed array's numeric sort: a comparator sort of the ~800 venues of a city's 10 km took
    // longer than finding them
    const sorted = Int32Array.from(hits).sort();
    // boxes may overlap at their edges (lng ±180): drop duplicates
    const ids: number[] = [];
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) ids.push(sorted[i]);
    return ids;
  }
}

/** [minLng, minLat, maxLng, maxLat] boxes covering every point within radiusKm (slightly widened). */
export function searchBoxes(lat: number, lng: number, radiusKm: number): [number, number, number, number][] {
  const angular = radiusKm / EARTH_RADIUS_KM; // radians
  const pad = 1e-9;
  const dLat = (angular / DEG) * (1 + 1e-9) + pad;
  const minLat = lat - dLat,
    maxLat = lat + dLat;
  if (angular >= Math.PI || minLat <= -90 || maxLat >= 90) {
    // a pole is inside the circle (or nearly): every longitude
    return [[-180, Math.max(-90, minLat), 180, Math.min(90, maxLat)]];
  }
  const ratio = Math.sin(angular) / Math.cos(lat * DEG);
  if (ratio >= 1) return [[-180, minLat, 180, maxLat]];
  const dLng = (Math.asin(ratio) / DEG) * (1 + 1e-9) + pad;
  const minLng = lng - dLng,
    maxLng = lng + dLng;
  if (minLng < -180)
    return [
      [minLng + 360, minLat, 180, maxLat],
      [-180, minLat, maxLng, maxLat],
    ];
  if (maxLng > 180)
    return [
      [minLng, minLat, 180, maxLat],
      [-180, minLat, maxLng - 360, maxLat],
    ];
  return [[minLng, minLat, maxLng, maxLat]];
}
