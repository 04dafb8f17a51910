/**
 * Evidence attached to a delivered task: photos and document scans (the bytes stored once per
 * SHA-256, inside the database file, so a backup of the file is a backup of everything) and notes.
 * Runs inside the caller's transaction (the delivery's).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../connection.ts';
import { statementsFor } from '../statements.ts';
import type { EvidenceRow } from '../../lib/human/rows.ts';

export interface NewEvidence {
  kind: 'photo' | 'note' | 'document';
  file?: { bytes: Buffer; mediaType: string; filename: string | null };
  note?: string;
  captured_at?: number | null;
  captured_source?: 'exif' | 'upload' | 'synthetic' | null;
  latitude?: number | null;
  longitude?: number | null;
  accuracy_m?: number | null;
  position_source?: 'exif' | 'reported' | 'synthetic' | null;
  synthetic?: boolean;
}

export type { EvidenceRow };

const statements = statementsFor((db) => ({
  file: db.prepare(
    'INSERT INTO human_files (sha256, media_type, size, bytes, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
  ),
  fileId: db.prepare('SELECT id FROM human_files WHERE sha256 = ?').pluck(),
  add: db.prepare(`INSERT INTO human_evidence (task_id, kind, file_id, filename, note, captured_at, captured_source, latitude, longitude,
      accuracy_m, position_source, synthetic, created_at) VALUES (@task_id, @kind, @file_id, @filename, @note, @captured_at, @captured_source,
      @latitude, @longitude, @accuracy_m, @position_source, @synthetic, @created_at)`),
  list: db.prepare(`SELECT e.id, e.kind, e.filename, e.note, e.captured_at, e.captured_source, e.latitude, e.longitude, e.accuracy_m,
      e.position_source, e.synthetic, e.created_at, f.sha256, f.media_type, f.size
      FROM human_evidence e LEFT JOIN human_files f ON f.id = e.file_id WHERE e.task_id = ? ORDER BY e.id`),
  bytes:
    db.prepare(`SELECT f.sha256, f.media_type, f.size, f.bytes, e.filename FROM human_evidence e JOIN human_files f ON f.id = e.file_id
      WHERE e.task_id = ? AND e.id = ?`),
}));

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function addEvidence(db: Db, taskId: number, item: NewEvidence, now: number): number {
  const s = statements(db);
  let fileId: number | null = null;
  if (item.file) {
    const hash = sha256(item.file.bytes);
    s.file.run(hash, item.file.mediaType, item.file.bytes.length, item.file.bytes, now);
    fileId = s.fileId.get(hash) as number;
  }
  return Number(
    s.add.run({
      task_id: taskId,
      kind: item.kind,
      file_id: fileId,
      filename: item.file?.filename ?? null,
      note: item.note ?? null,
      captured_at: item.captured_at ?? null,
      captured_source: item.captured_source ?? null,
      latitude: item.latitude ?? null,
      longitude: item.longitude ?? null,
      accuracy_m: item.accuracy_m ?? null,
      position_source: item.position_source ?? null,
      synthetic: item.synthetic ? 1 : 0,
      created_at: now,
    }).lastInsertRowid,
  );
}

export const evidenceOf = (db: Db, taskId: number) => statements(db).list.all(taskId) as EvidenceRow[];

export const evidenceFile = (db: Db, taskId: number, evidenceId: number) =>
  statements(db).bytes.get(taskId, evidenceId) as
    { sha256: string; media_type: string; size: number; bytes: Buffer; filename: string | null } | undefined;
