/**
 * The order vitest starts test files in: its own (projects in turn; failed, then longest by the
 * last run's timings, or largest files on a fresh clone), except that the files known to take
 * longest start first in their project. On a fresh clone (no timings yet, as in CI) a long file
 * that happens to be small would otherwise start last and run alone at the end.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Measured on the 2-core machine, longest first (README "Tests"). */
const longest = [
  'test/e2e/crash-random.test.ts',
  'test/browser/demo.test.ts',
  'test/browser/page.test.ts',
  'test/e2e/crash.test.ts',
  'test/e2e/outbox-crash.test.ts',
  'test/store/migrate-store-scale.test.ts',
  'test/bot/broadcast-scale.test.ts',
  'test/notify/outbox.test.ts',
  'test/bot/buy.test.ts',
  'test/store/due-index.test.ts',
  'test/store/contract-invariants.test.ts',
  'test/jobs/watcher-edges.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const key = (spec: TestSpecification) => {
      const at = longest.indexOf(path.relative(root, spec.moduleId).split(path.sep).join('/'));
      // The fleet labs first of all: their one worker then runs them one by one beside everything else.
      const first = spec.moduleId.endsWith(path.join('test', 'e2e', 'fleet-labs.test.ts'));
      return [first ? -1 : projects.indexOf(spec.project.name), at < 0 ? longest.length : at, sorted.indexOf(spec)];
    };
    const keys = new Map(sorted.map((spec) => [spec, key(spec)]));
    return [...sorted].sort((a, b) => {
      const [pa = 0, ra = 0, ia = 0] = keys.get(a) ?? [];
      const [pb = 0, rb = 0, ib = 0] = keys.get(b) ?? [];
      return pa - pb || ra - rb || ia - ib;
    });
  }
}
