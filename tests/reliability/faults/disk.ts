/**
 * A small file system of its own for the fault drill, where the database file can be made read-only
 * and the disk filled under a running server, then given back, for real where the machine allows it:
 *
 *  - ext4 in a loop-mounted image (root with loop devices, as here and in CI): the disk fills for real
 *    (ENOSPC → SQLITE_FULL) and the files are made immutable (`chattr +i`: writes through the server's
 *    open descriptors fail with EPERM, as on a file system gone read-only; `chmod` would not, and a
 *    remount read-only is refused while the server has its files open for writing);
 *  - else a size-limited tmpfs (root without loop devices): a real full disk; tmpfs ignores `chattr +i`
 *    for open files, so the read-only file is simulated at the SQLite boundary;
 *  - else a plain temporary directory: both simulated at the SQLite boundary, on the server's own
 *    connection: `PRAGMA max_page_count` (SQLite's own SQLITE_FULL) and `PRAGMA query_only` (its own
 *    SQLITE_READONLY).
 * `how` says which, and the drill records it.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '../../../db/connection.ts';

export type Realness = 'real' | 'simulated';

export interface DrillDisk {
  /** The directory the database goes in. */
  dir: string;
  how: { fileSystem: 'ext4 loop' | 'tmpfs' | 'directory'; full: Realness; readOnly: Realness };
  /** Fills the disk (or its stand-in); `db` is the server's connection. */
  fill(db: Db): void;
  free(db: Db): void;
  /** Makes these files read-only under the server (or its connection, when simulated). */
  makeReadOnly(db: Db, files: string[]): void;
  makeWritable(db: Db, files: string[]): void;
  cleanup(): void;
}

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' }).status === 0;

/** Writes zeros until the file system says ENOSPC: 1 MiB at a time, then 4 KiB for the last blocks. */
function fillUp(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Whether `chattr +i` stops writes through a descriptor opened before it (ext4 yes, tmpfs no). */
function immutableStopsOpenWriters(dir: string): boolean {
  const probe = join(dir, 'immutable-probe');
  const fd = openSync(probe, 'w');
  try {
    if (!run('chattr', ['+i', probe])) return false;
    try {
      writeSync(fd, 'x');
      return false;
    } catch {
      return true;
    } finally {
      run('chattr', ['-i', probe]);
    }
  } finally {
    closeSync(fd);
    rmSync(probe, { force: true });
  }
}

export function drillDisk(sizeMiB = 64): DrillDisk {
  const root = mkdtempSync(join(tmpdir(), 'trio-drill-'));
  const mount = join(root, 'mnt');
  const image = join(root, 'disk.img');
  mkdirSync(mount);
  let fileSystem: DrillDisk['how']['fileSystem'] = 'directory';
  if (
    run('truncate', ['-s', `${sizeMiB}M`, image]) &&
    run('mkfs.ext4', ['-q', '-F', '-m', '0', image]) &&
    run('mount', ['-o', 'loop', image, mount])
  )
    fileSystem = 'ext4 loop';
  else if (run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', mount])) fileSystem = 'tmpfs';
  const full: Realness = fileSystem === 'directory' ? 'simulated' : 'real';
  const readOnly: Realness = fileSystem === 'ext4 loop' && immutableStopsOpenWriters(mount) ? 'real' : 'simulated';
  const filler = join(mount, 'filler');
  let pageLimit = 0;
  return {
    dir: mount,
    how: { fileSystem, full, readOnly },
    fill(db) {
      if (full === 'simulated') {
        pageLimit = db.pragma('max_page_count', { simple: true }) as number;
        db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
        return;
      }
      // An empty WAL first: the next commit then needs blocks the full disk does not have.
      db.pragma('wal_checkpoint(TRUNCATE)');
      fillUp(filler);
    },
    free(db) {
      if (full === 'simulated') db.pragma(`max_page_count = ${pageLimit}`);
      else rmSync(filler, { force: true });
    },
    makeReadOnly(db, files) {
      if (readOnly === 'simulated') db.pragma('query_only = ON');
      else for (const f of files) run('chattr', ['+i', f]);
    },
    makeWritable(db, files) {
      if (readOnly === 'simulated') db.pragma('query_only = OFF');
      else for (const f of files) run('chattr', ['-i', f]);
    },
    cleanup() {
      if (fileSystem !== 'directory') {
        spawnSync('chattr', ['-R', '-i', mount]);
        if (!run('umount', [mount])) run('umount', ['-l', mount]);
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
