/**
 * Reads src/ as the TypeScript compiler does (its parser, not patterns over the text), for the
 * architecture test's measured rules: import circles, comments, function lengths. A pattern over
 * the text would take an import written inside a comment or a string for a real one.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** One file parsed; `path` is absolute. */
export interface ParsedFile {
  path: string;
  source: ts.SourceFile;
}

/** Parses each file (no type checking: a few hundred files in well under a second). */
export function parseFiles(paths: string[]): ParsedFile[] {
  return paths.map((path) => ({
    path,
    source: ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true),
  }));
}

/**
 * Who imports whom among `files`: every static `import … from './x.ts'` and `export … from './x.ts'`
 * (type-only ones too: they tie the modules as tightly for a reader), relative specifiers only.
 * Dynamic `import()` is left out on purpose: it is how a module breaks a circle at load time.
 */
export function importGraph(files: ParsedFile[]): Map<string, string[]> {
  const known = new Set(files.map((file) => file.path));
  const graph = new Map<string, string[]>();
  for (const { path, source } of files) {
    const targets = new Set<string>();
    for (const statement of source.statements) {
      const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(dirname(path), specifier.text);
      if (known.has(target)) targets.add(target);
    }
    graph.set(path, [...targets]);
  }
  return graph;
}

/**
 * The import circles of `graph`: its strongly connected components (Tarjan's algorithm) of more
 * than one file, or of one file that imports itself. Each circle's files are sorted, the circles by
 * their first file, so a failure reads the same on every run.
 */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];

  const visit = (node: string): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(next)!));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
  };

  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Every comment of a file (line and block, JSDoc included), with the line it starts on (1-based). */
export function comments({ source }: ParsedFile): { line: number; text: string }[] {
  const text = source.getFullText();
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  // Every comment is trivia in front of some token, so the tokens' full starts find them all.
  const walk = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) {
      if (child.kind >= ts.SyntaxKind.FirstJSDocNode && child.kind <= ts.SyntaxKind.LastJSDocNode) continue;
      walk(child);
    }
  };
  walk(source);
  return [...seen]
    .sort(([a], [b]) => a - b)
    .map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
}

/** A function (declaration, expression, arrow, method, accessor or constructor) and its length. */
export interface FunctionLength {
  /** Repo-relative file and the function's name, nested names joined by `.` (`createApp.stop`). */
  name: string;
  lines: number;
}

/** The name a reader would search for: its own, else the variable or property it is assigned to. */
function functionName(node: ts.SignatureDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)))
    return node.name.text;
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    ts.isIdentifier(parent.name)
  ) {
    return parent.name.text;
  }
  return `<anonymous, line ${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}>`;
}

/** Every function of `files` longer than `maxLines` (its own lines, from its first token to its last; JSDoc not counted). */
export function longFunctions(files: ParsedFile[], maxLines: number, root: string): FunctionLength[] {
  const long: FunctionLength[] = [];
  for (const { path, source } of files) {
    const visit = (node: ts.Node, outer: string[]): void => {
      let names = outer;
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        names = [...outer, functionName(node)];
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = last - first + 1;
        if (lines > maxLines) long.push({ name: `${relative(root, path)} ${names.join('.')}`, lines });
      }
      ts.forEachChild(node, (child) => visit(child, names));
    };
    visit(source, []);
  }
  return long.sort((a, b) => a.name.localeCompare(b.name));
}
