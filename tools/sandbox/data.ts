/**
 * Loading the sandbox's demo records (accounts, products, items, purchase codes, game catalogue)
 * from the JSON files in `tools/sandbox/records/`. Each file is checked against a zod schema when it
 * is loaded, so a typo in a data file stops the sandbox (and the tests) with a message naming the
 * file and the field, instead of a simulator that quietly misbehaves.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The folder holding the demo data files. */
export const demoDataDir = new URL('./records/', import.meta.url);

/**
 * Every data file may carry a `$comment` explaining its fields (JSON has no comments). Strict
 * objects everywhere else: a misspelt key is an error, not a silently ignored field.
 */
export const commentField = { $comment: z.string().optional() };

/**
 * Parses the text of a demo data file and checks it against `schema`.
 * Throws an Error whose message names `file` and every field that is wrong.
 */
export function parseDemoData<Schema extends z.ZodType>(file: string, schema: Schema, text: string): z.output<Schema> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`Sandbox demo data ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new Error(`Sandbox demo data ${file} is invalid:\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** Reads `tools/sandbox/records/<name>` synchronously (at module load) and validates it; see `parseDemoData`. */
export function loadDemoData<Schema extends z.ZodType>(name: string, schema: Schema): z.output<Schema> {
  const text = readFileSync(new URL(name, demoDataDir), 'utf8');
  return parseDemoData(`tools/sandbox/records/${name}`, schema, text);
}

/** Adds an issue at `path` for every value of `values` seen before (ids, codes that must be unique). */
export function checkUnique(
  context: z.RefinementCtx,
  values: Array<string | number>,
  path: (index: number) => PropertyKey[],
  what: string,
): void {
  const seen = new Set<string | number>();
  values.forEach((value, index) => {
    if (seen.has(value)) context.addIssue({ code: 'custom', path: path(index), message: `duplicate ${what} ${JSON.stringify(value)}` });
    seen.add(value);
  });
}
