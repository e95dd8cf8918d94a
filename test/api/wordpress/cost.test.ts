import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { costValues, formatCost, parseCost } from '../../../src/api/wordpress/cost.ts';

function costOf(input: unknown): { cost: string; symbol: string; position: string; values: string[] } {
  const p = parseCost(input);
  return {
    cost: formatCost(p.costs, p.currencySymbol, p.currencyPosition),
    symbol: p.currencySymbol,
    position: p.currencyPosition,
    values: costValues(p.costs),
  };
}

const cost = suite('cost');

cost('parseCost :: 20$ → postfix $, stored as is (EventInsertionCest)', () => {
  assert.equal(parseCost('20$'), { costs: ['20$'], currencySymbol: '$', currencyPosition: 'postfix' });
  assert.equal(costOf('20$'), { cost: '20$', symbol: '$', position: 'postfix', values: ['20'] });
});

cost('parseCost :: array 0$, 20$, 30$ → Free – 30$ (EventInsertionCest)', () => {
  assert.equal(parseCost(['0$', '20$', '30$']).costs, ['0$', '20$', '30$']);
  assert.equal(costOf(['0$', '20$', '30$']), {
    cost: 'Free \u2013 30$',
    symbol: '$',
    position: 'postfix',
    values: ['0', '20', '30'],
  });
});

cost('parseCost :: $23 is a prefix symbol', () => {
  assert.equal(costOf('$23'), { cost: '$23', symbol: '$', position: 'prefix', values: ['23'] });
  assert.equal(costOf('$ 23'), { cost: '$23', symbol: '$', position: 'prefix', values: ['23'] });
  assert.equal(costOf('10 USD').symbol, 'USD');
  assert.equal(costOf('10 USD').position, 'postfix');
});

cost('parseCost :: comma-separated costs in one string are several costs for symbol detection', () => {
  const p = parseCost('free, 20$, 30$');
  assert.equal(p, { costs: ['free, 20$, 30$'], currencySymbol: '$', currencyPosition: 'postfix' });
  assert.is(formatCost(p.costs, p.currencySymbol, p.currencyPosition), '20$ \u2013 30$');
});

cost('parseCost :: inconsistent symbols or positions record none (tribe-common Cost_UtilsTest)', () => {
  assert.equal(parseCost(['free', '20¥', '30$']).currencySymbol, '');
  assert.equal(parseCost(['20¥', '30$']).currencySymbol, '');
  assert.equal(parseCost(['free', '20¥']).currencySymbol, '¥');
  assert.equal(parseCost(['$20', '30$']), { costs: ['$20', '30$'], currencySymbol: '$', currencyPosition: '' });
  assert.equal(parseCost('foo bar'), { costs: ['foo bar'], currencySymbol: '', currencyPosition: '' });
});

cost('parseCost :: numbers, empties and junk', () => {
  assert.equal(parseCost(25).costs, ['25']);
  assert.equal(parseCost('').costs, []);
  assert.equal(parseCost(['', ' ']).costs, []);
  assert.equal(parseCost(null).costs, []);
  assert.equal(parseCost({ a: 1 }).costs, []);
});

cost('formatCost :: no costs → empty string', () => {
  assert.is(formatCost([], '$', 'prefix'), '');
});

cost('formatCost :: single values', () => {
  assert.is(formatCost(['0'], '', ''), 'Free');
  assert.is(formatCost(['0.00$'], '$', 'postfix'), 'Free');
  assert.is(formatCost(['10.50'], '€', 'prefix'), '€10.50');
  assert.is(formatCost(['Donation'], '', ''), 'Donation');
  assert.is(formatCost(['Tom & Jerry'], '', ''), 'Tom &amp; Jerry');
});

cost('formatCost :: numbers without a stored symbol get the site default symbol, prefix', () => {
  assert.is(formatCost(['25'], '', ''), '$25');
  assert.is(formatCost(['25'], '', '', '£'), '£25');
});

cost('formatCost :: range is min – max over all numbers', () => {
  assert.is(formatCost(['5$', '50$', '20$'], '$', 'postfix'), '5$ \u2013 50$');
  assert.is(formatCost(['10 - 20'], '$', 'prefix'), '$10 \u2013 $20');
  assert.is(formatCost(['20$', '20$'], '$', 'postfix'), '20$');
});

cost('costValues :: numeric strings sorted ascending, text after', () => {
  assert.equal(costValues(['30$', '0$', '20$']), ['0', '20', '30']);
  assert.equal(costValues(['100', '9']), ['9', '100']);
  assert.equal(costValues(['free', '20¥']), ['20', 'free']);
  assert.equal(costValues(['10, 20']), ['10', '20']);
  assert.equal(costValues(['$10.50']), ['10.50']);
  assert.equal(costValues(['20$', '20$']), ['20']);
  assert.equal(costValues([]), []);
});

cost.run();
