/**
 * Why the database file could not be opened, said so an operator can act on it (issue 28): SQLite
 * says "unable to open database file" for a missing file, a directory, a permission and a full disk
 * alike. These name the path (as given and as resolved), the cause found by looking at the file, and
 * what to do. db/connection.ts throws them; main.ts prints the message as `error: …` and exits 1.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class DatabaseOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseOpenError';
  }
}

const codeOf = (err: unknown) => String((err as { code?: unknown } | null)?.code ?? '');

function can(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

/** Who owns a file and its mode, against who this process runs as: the facts a permission problem needs. */
function ownership(path: string): string {
  const st = statSync(path);
  const uid = process.getuid?.();
  return `it belongs to uid ${st.uid}, mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}; trio runs as uid ${uid ?? '?'}`;
}

/** The path as given and, when it differs, as resolved against the working directory. */
function named(path: string): string {
  const full = resolve(path);
  return full === path ? path : `${path} (${full})`;
}

/**
 * The explanation of a failure to open `path` (or to make it usable: WAL needs the file and its
 * directory writable), checked in the order an operator would look.
 */
export function explainOpenFailure(path: string, readonly: boolean, err: unknown): DatabaseOpenError {
  const at = `DATABASE_PATH ${named(path)}`;
  const cause = { cause: err };
  const code = codeOf(err);
  if ((err as { syscall?: string }).syscall === 'mkdir') {
    // mkdir -p says EEXIST when a part of the path is a file: name that part.
    let part = dirname(resolve(path));
    while (!existsSync(part) && dirname(part) !== part) part = dirname(part);
    const why = statSync(part).isDirectory() ? (err as Error).message : `${part} is a file, not a directory`;
    return new DatabaseOpenError(
      `cannot create the directory of ${at}: ${why}. Create it, writable by the user trio runs as, or point DATABASE_PATH elsewhere.`,
      cause,
    );
  }
  const dir = dirname(resolve(path));
  const unwritableDir = () =>
    new DatabaseOpenError(
      `the directory of ${at} is not writable by this process (${ownership(dir)}): SQLite creates the database and keeps its -wal and -shm files there. Make the directory writable by the user trio runs as.`,
      cause,
    );
  if (!existsSync(path)) {
    if (readonly)
      return new DatabaseOpenError(
        `${at} does not exist. A READ_ONLY node serves a copy of the primary's database: put the copy there first (a LiteFS mount, litestream restore), or point DATABASE_PATH at it.`,
        cause,
      );
    if (!can(dir, constants.W_OK)) return unwritableDir();
    return new DatabaseOpenError(`${at} does not exist and could not be created: ${(err as Error).message}.`, cause);
  }
  if (statSync(path).isDirectory())
    return new DatabaseOpenError(
      `${at} is a directory, not a database file: point DATABASE_PATH at the file in it (for example ${resolve(path, 'trio.sqlite')}).`,
      cause,
    );
  if (!can(path, constants.R_OK))
    return new DatabaseOpenError(
      `${at} cannot be read by this process: permission denied (${ownership(path)}). Run trio as the file's owner, or give the file to that user (chown).`,
      cause,
    );
  if (!readonly) {
    const problem = [path, `${path}-wal`, `${path}-shm`].find((p) => existsSync(p) && !can(p, constants.W_OK));
    if (problem)
      return new DatabaseOpenError(
        `${problem === path ? at : `${named(problem)}, beside DATABASE_PATH,`} is read-only to this process (${ownership(problem)}; or its file system is mounted read-only, or the file is immutable): trio writes to it. Make it writable, or set READ_ONLY=on if this node serves a copy.`,
        cause,
      );
    if (!can(dir, constants.W_OK)) return unwritableDir();
  }
  if (code.startsWith('SQLITE_NOTADB'))
    return new DatabaseOpenError(
      `${at} is not an SQLite database (${(err as Error).message}): DATABASE_PATH points at another file, or the file is damaged; restore a backup (docs/operations.md, "Backups").`,
      cause,
    );
  if (code.startsWith('SQLITE_CORRUPT'))
    return new DatabaseOpenError(
      `${at} is damaged (${(err as Error).message}): restore the latest backup (docs/operations.md, "Backups").`,
      cause,
    );
  return new DatabaseOpenError(`cannot open ${at}: ${(err as Error).message}.`, cause);
}

/**
 * After a successful open of a file trio is to write: SQLite opens a file it may not write read-only
 * without a word, and every write would then fail at run time. Refuse at start instead, with the why.
 */
export function checkWritable(path: string): void {
  if (path === ':memory:') return;
  const problem = [path, `${path}-wal`].find((p) => existsSync(p) && !can(p, constants.W_OK));
  const dir = dirname(resolve(path));
  if (problem || !can(dir, constants.W_OK))
    throw explainOpenFailure(path, false, new Error('the file or its directory is not writable'));
}
