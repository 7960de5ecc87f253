/**
 * Appends that are on disk when they return, for the update inbox's log: the file kept open in
 * synchronous-write mode between appends (one write call per append, not an open, a write, an
 * fdatasync and a close).
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import { noop } from './atomic-file.ts';

/** O_APPEND | O_DSYNC without O_CREAT: each write returns once on disk; a log that is gone is an error, never silently a new file. */
const appendFlags = fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_DSYNC;

/**
 * The files appended to, each kept open in synchronous-write mode (the update inbox appends once
 * per getUpdates answer: one write call then, not an open, a write, an fdatasync and a close).
 */
const appendHandles = new Map<string, Promise<fs.FileHandle>>();

/** Closes the handle `writeFileAtomic` keeps for appends to `file`, if any (the file is closed or replaced). */
export async function releaseAppendHandle(file: string): Promise<void> {
  const held = appendHandles.get(file);
  appendHandles.delete(file);
  await held?.then((handle) => handle.close()).catch(noop);
}

/** Appends `content` to `file` (which must exist) and resolves once it is on disk. */
export async function appendSynced(file: string, content: string | Buffer): Promise<void> {
  let held = appendHandles.get(file);
  if (!held) {
    held = fs.open(file, appendFlags);
    appendHandles.set(file, held);
  }
  try {
    await (await held).writeFile(content);
  } catch (error) {
    // Opened afresh by the next append (the file may be gone, or its handle broken).
    if (appendHandles.get(file) === held) await releaseAppendHandle(file);
    throw error;
  }
}
