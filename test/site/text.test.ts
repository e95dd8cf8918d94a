// The pages' text helpers: entities, plain text of HTML, KSES on the way out, JSON for a script
// block, dates through Intl, the first weekday of a locale.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeEntities, jsonForScript, plainText, safeHtml, summaryText } from '../../src/site/text.ts';
import { Dates, eventWhen, parseDay } from '../../src/site/dates.ts';
import { firstDayOfWeek } from '../../src/site/cards.ts';
import { isoWithOffset } from '../../src/site/jsonld.ts';

const T = suite('site :: text and dates');

T('entities and plain text', () => {
  assert.is(
    decodeEntities('&#8220;Hi&#8221; &#038; &amp;amp; &hellip; &#x1F600; &bogus; &#0;'),
    '“Hi” & &amp; … 😀 &bogus; \ufffd',
  );
  assert.is(plainText('<b>Jazz</b> &#038;  <i>Blues</i>'), 'Jazz & Blues');
  assert.is(plainText(undefined), '');
});

T('descriptions: KSES on the way out, images without alt are decorative, summaries without script text', () => {
  const html =
    '<p>Hi <strong>there</strong></p><script>alert(1)</script><img src="a.png" onerror="x()"><a href="javascript:y()">z</a>';
  const safe = safeHtml(html);
  assert.not.match(safe, /script|onerror|javascript/i);
  assert.match(safe, '<img alt="" src="a.png">');
  assert.match(safe, '<strong>there</strong>');
  assert.is(summaryText('<p>One</p><p>Two<br>three</p><script>alert(1)</script>'), 'One Two three');
});

T('JSON for a script block has no <, > or & and parses back', () => {
  const value = { name: '</script><script>alert(1)</script> & \u2028' };
  const text = jsonForScript(value);
  assert.not.match(text, /[<>&\u2028]/);
  assert.equal(JSON.parse(text), value);
});

T('dates: Intl in the locale, wall-clock times of the event, ranges', () => {
  const d = new Dates('en-US');
  assert.is(
    eventWhen(d, { start_date: '2026-03-10 19:00:00', end_date: '2026-03-10 21:00:00', timezone_abbr: 'EDT' }),
    'Tuesday, March 10, 2026, 7:00 PM – 9:00 PM EDT',
  );
  assert.is(
    eventWhen(d, { start_date: '2026-03-20 00:00:00', end_date: '2026-03-22 23:59:59', all_day: true }),
    'March 20, 2026 – March 22, 2026, all day',
  );
  assert.is(
    eventWhen(d, { start_date: '2026-03-20 10:00:00', end_date: '2026-03-21 18:00:00', timezone_abbr: 'CET' }),
    'March 20, 2026, 10:00 AM – March 21, 2026, 6:00 PM CET',
  );
  assert.is(new Dates('fr-FR').longDay(parseDay('2026-03-10')!), 'mardi 10 mars 2026');
  assert.is(parseDay('2026-02-30'), undefined);
  assert.is(new Dates('xx-invalid-locale-tag').locale, 'en-US');
  assert.is(isoWithOffset('2026-03-10 19:00:00', '2026-03-10 23:00:00'), '2026-03-10T19:00:00-04:00');
  assert.is(isoWithOffset('2026-03-10 19:30:00', '2026-03-10 14:00:00'), '2026-03-10T19:30:00+05:30');
});

T('the first day of the week follows the locale', () => {
  assert.is(firstDayOfWeek('en-US'), 0);
  assert.is(firstDayOfWeek('fr-FR'), 1);
  assert.is(firstDayOfWeek('de'), 1);
});

T.run();
