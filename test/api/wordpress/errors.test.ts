import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CalendarError, fail, invalidParams, missingParams } from '../../../src/api/wordpress/errors.ts';

const errors = suite('errors');

errors('fail :: builds code, status and message from the table', () => {
  const e = fail('rest-event-not-found', [23]);
  assert.instance(e, CalendarError);
  assert.is(e.code, 'rest-event-not-found');
  assert.is(e.status, 404);
  assert.is(e.message, 'Event with ID 23 does not exist.');
  assert.equal(e.toJSON(), {
    code: 'rest-event-not-found',
    message: 'Event with ID 23 does not exist.',
    data: { status: 404 },
  });
});

errors('invalidParams :: lists every parameter like WordPress core', () => {
  const e = invalidParams({ start_date: 'Invalid parameter.', page: 'Invalid parameter.' });
  assert.is(e.code, 'rest_invalid_param');
  assert.is(e.status, 400);
  assert.is(e.message, 'Invalid parameter(s): start_date, page');
  assert.equal(e.data, {
    status: 400,
    params: { start_date: 'Invalid parameter.', page: 'Invalid parameter.' },
    details: {},
  });
});

errors('missingParams :: data.params is the array of names', () => {
  const e = missingParams(['title', 'start_date']);
  assert.is(e.code, 'rest_missing_callback_param');
  assert.equal(e.data.params, ['title', 'start_date']);
  assert.is(e.message, 'Missing parameter(s): title, start_date');
});

errors.run();
