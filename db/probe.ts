/**
 * Whether the database answers again after it failed (the database's Dependency runs this while it is
 * down, and only then: lib/http/dependency.ts). A node that writes probes with a write, since the
 * failures that matter there (disk full, the file or its file system made read-only, I/O errors) leave
 * reads working: `PRAGMA user_version = <its value>` commits a frame to the WAL and changes nothing
 * (the main file's user_version is not used by trio; the server lock uses its own file's). A
 * read-only node probes with a read. The busy timeout is lifted for the probe: a lock held by another
 * process answers SQLITE_BUSY at once instead of blocking the event loop for seconds.
 */
import type { Db } from './connection.ts';

export function databaseProbe(db: Db, how: { write: boolean }): () => void {
  return () => {
    const busy = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 0');
    try {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (how.write) db.pragma(`user_version = ${version}`);
    } finally {
      db.pragma(`busy_timeout = ${busy}`);
    }
  };
}
