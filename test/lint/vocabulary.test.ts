// README "The family's words" is the table made from test/components/shared/vocabulary.ts, word for
// word: the contract suite asserts those rows on every element, so the README cannot say otherwise.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { vocabularyTable } from '../components/shared/vocabulary.js';

const root = new URL('../..', import.meta.url).pathname;

describe("README: the family's words", () => {
  it('shows the table the contract suite asserts, row for row', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf("### The family's words");
    assert.notEqual(start, -1, 'README has a section "The family\'s words"');
    const section = readme.slice(start, readme.indexOf('\n#', start + 1));
    const table = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .join('\n');
    assert.equal(table, vocabularyTable());
  });
});
