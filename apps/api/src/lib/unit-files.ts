import { afterCommit, currentUnit, onRollback, UnitKey } from '../db/unit-of-work.js';
import type { FileStorage } from './storage.js';

/** The files a unit stored: its own to remove at once. */
const storedFiles = new UnitKey<Set<string>>('files stored');

/**
 * A file store that follows the unit of work (db/unit-of-work.ts): files are no part of a
 * transaction, so what a unit does to them is held to its outcome. A file the unit stored is
 * its own: removed at once when the unit removes it (a refused upload), and removed if the
 * unit rolls back (no record holds it). A file stored before the unit is removed once the unit
 * has committed (`afterCommit`): the service goes on at once, the call answers once it is gone.
 * Outside a unit's transaction a file is stored and removed as it is asked.
 */
export function removalsAfterCommit(files: FileStorage): FileStorage {
  const stored = (key: string) => {
    const unit = currentUnit();
    if (!unit?.tx) return;
    const own = unit.get(storedFiles) ?? new Set<string>();
    unit.set(storedFiles, own.add(key));
    // Rolled back, no record holds it (already gone, when the unit removed it itself).
    onRollback(() => files.remove(key).catch(() => undefined));
  };
  return {
    ...files,
    async put(key, content) {
      stored(key);
      await files.put(key, content);
    },
    async putStream(key, content) {
      stored(key);
      return files.putStream(key, content);
    },
    remove(key) {
      const unit = currentUnit();
      if (!unit?.tx || unit.get(storedFiles)?.delete(key)) return files.remove(key);
      afterCommit(() => files.remove(key));
      return Promise.resolve();
    },
  };
}
