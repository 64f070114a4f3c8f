import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The data layer's rules (STYLE.md, issue "Data layer v2"), checked on the source text:
 * domain code never imports the HTTP layer; physical key names live only in the table design; only
 * the toolkit talks transactions, retries and conditional-check exceptions; only model modules build keys.
 *
 * `PENDING` lists files that still break a rule while the domains move to the toolkit. It may only
 * shrink: a listed file that already keeps the rule fails the test, so the list is kept honest.
 */

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SOURCE_DIRS = ['shared', 'functions', 'bin', 'lib'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

const FILES = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)));
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const isDomain = (file: string) => file.startsWith('shared/') && !/^shared\/(http|openapi|db)\//.test(file) && !file.startsWith('shared/config') && !file.startsWith('shared/logger');
const isToolkit = (file: string) => file.startsWith('shared/db/');
const isModel = (file: string) => /-model\.ts$/.test(file);

interface Rule {
  name: string;
  /** Files the rule applies to. */
  applies: (file: string) => boolean;
  /** True when the file breaks the rule. */
  breaks: (source: string) => boolean;
}

const RULES: Rule[] = [
  {
    name: 'domain code does not import the HTTP layer',
    applies: isDomain,
    breaks: (source) => /from '(\.\.\/)+http\//.test(source),
  },
  {
    name: 'physical key names appear only in the table design',
    applies: (file) => file !== 'shared/db/table-design.ts' && !file.startsWith('lib/'),
    breaks: (source) => /\b(PK|SK|GSI\d(PK|SK))\b/.test(source),
  },
  {
    name: 'only the transaction builder sends transactions and reads cancellation reasons',
    // write-failures.ts is the builder's client-free half: what a failed write means.
    applies: (file) => file !== 'shared/db/transaction.ts' && file !== 'shared/db/write-failures.ts',
    breaks: (source) => /TransactWriteCommand|TransactionCanceledException|CancellationReasons/.test(source),
  },
  {
    name: 'only the toolkit catches conditional-check failures',
    applies: (file) => !isToolkit(file) && file !== 'shared/http/error-mapping.ts',
    breaks: (source) => /ConditionalCheckFailedException/.test(source),
  },
  {
    name: 'one retry helper: backoff loops live in the toolkit',
    applies: (file) => !isToolkit(file),
    breaks: (source) => /jitteredBackoff|retrying\(|from '[./]*db\/retry\.js'/.test(source),
  },
  {
    name: 'keys are built only by model modules and the toolkit',
    applies: (file) => file.startsWith('shared/') && !isToolkit(file) && !isModel(file),
    breaks: (source) => /\b(itemKey|indexKey)\(|\bTABLE_KEYS\.(partitionKey|sortKey)|\[(index|GSI|design)\.(partitionKey|sortKey)\]/.test(source),
  },
  {
    name: 'lists read through the toolkit\'s partition queries, not the legacy helpers',
    applies: (file) => file !== 'shared/db/legacy-query.ts',
    breaks: (source) => /legacy-query\.js/.test(source),
  },
];

/** Files that still break a rule, per rule: to be emptied as each domain moves to its model module. */
const PENDING: Record<string, readonly string[]> = {
  'domain code does not import the HTTP layer': [],
  'only the transaction builder sends transactions and reads cancellation reasons': [],
  'only the toolkit catches conditional-check failures': [],
  'one retry helper: backoff loops live in the toolkit': [],
  'keys are built only by model modules and the toolkit': [],
  'lists read through the toolkit\'s partition queries, not the legacy helpers': [],
};

describe('data layer rules', () => {
  for (const rule of RULES) {
    it(rule.name, () => {
      const breaking = FILES.filter((file) => rule.applies(file) && rule.breaks(text(file))).sort();
      const pending = [...(PENDING[rule.name] ?? [])].sort();
      expect(breaking.filter((file) => !pending.includes(file)), 'files breaking the rule').toEqual([]);
      expect(pending.filter((file) => !breaking.includes(file)), 'files listed as pending that already keep the rule: remove them from PENDING').toEqual([]);
    });
  }
});
