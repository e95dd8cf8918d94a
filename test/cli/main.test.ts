import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { main, packageVersion, USAGE } from '../../src/cli/main.ts';
import { memoryIo } from './io.ts';

const dispatch = suite('cli :: main');

dispatch('--version prints the package version', async () => {
  const io = memoryIo();
  assert.is(await main(['--version'], io), 0);
  const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.is(io.out(), `${pkg.version}\n`);
  assert.is(packageVersion(), pkg.version);
});

dispatch('--help and help print the usage on stdout', async () => {
  for (const argv of [['--help'], ['-h'], ['help']]) {
    const io = memoryIo();
    assert.is(await main(argv, io), 0);
    assert.is(io.out(), USAGE);
    assert.is(io.err(), '');
  }
});

dispatch('each command has --help', async () => {
  for (const [command, words] of [
    ['serve', /--rest-prefix P\s+CALENDAR_REST_PREFIX/],
    ['user', /user add LOGIN --role ROLE/],
    ['snapshot', /calendar-engine snapshot \[--data DIR\]/],
    ['import', /calendar-engine import FILE/],
  ] as const) {
    const io = memoryIo();
    assert.is(await main([command, '--help'], io), 0, `~> ${command} --help`);
    assert.match(io.out(), words);
    const viaHelp = memoryIo();
    assert.is(await main(['help', command], viaHelp), 0);
    assert.is(viaHelp.out(), io.out());
  }
});

dispatch('no command, unknown command, unknown option: message + usage on stderr, exit 2', async () => {
  for (const [argv, message] of [
    [[], 'missing command'],
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['--frob'], "unknown option '--frob'"],
  ] as const) {
    const io = memoryIo();
    assert.is(await main([...argv], io), 2);
    assert.is(io.out(), '');
    assert.ok(io.err().startsWith(`calendar-engine: ${message}\n`), io.err());
    assert.ok(io.err().includes(USAGE));
  }
});

dispatch("unknown option of a command names the option and shows that command's usage", async () => {
  const io = memoryIo();
  assert.is(await main(['serve', '--prot', '80'], io), 2);
  assert.ok(io.err().startsWith("calendar-engine serve: unknown option '--prot'\n"), io.err());
  assert.match(io.err(), /Usage: calendar-engine serve/);
  const missing = memoryIo();
  assert.is(await main(['snapshot', '--data'], missing), 2);
  assert.ok(missing.err().startsWith("calendar-engine snapshot: option '--data' needs a value"), missing.err());
  const extra = memoryIo();
  assert.is(await main(['snapshot', 'now'], extra), 2);
  assert.ok(extra.err().startsWith("calendar-engine snapshot: unexpected argument 'now'"), extra.err());
});

dispatch('errors print no stack trace unless DEBUG is set', async () => {
  const io = memoryIo({}, '/');
  assert.is(await main(['import', '/nonexistent/calendar.json', '--data', '/tmp/x'], io), 1);
  assert.is(io.err(), 'calendar-engine import: /nonexistent/calendar.json: no such file\n');
  const debug = memoryIo({ DEBUG: '1' }, '/');
  assert.is(await main(['import', '/nonexistent/calendar.json', '--data', '/tmp/x'], debug), 1);
  assert.match(debug.err(), /\n\s+at /);
});

dispatch.run();
