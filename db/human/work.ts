/**
 * What a verified person does with a live task (the console's worker pages call these): accept it
 * (compare-and-set pending → dispatched, so of several people only one gets it), start it, deliver an
 * answer with a confidence and evidence, or report that they cannot do it. The answer is validated
 * against the capability's result schema and the evidence against its rule before anything is written.
 */
import { addEvidence, type NewEvidence } from './evidence.ts';
import { taskByRef, transition, type TaskRow } from './tasks.ts';
import { inAreas, isVerified, workerOf } from './workers.ts';
import { definition } from '../../lib/human/capabilities.ts';
import { forbiddenScope, invalidRequest, notFound } from '../../lib/human/errors.ts';
import { readExif } from '../../lib/human/exif.ts';
import { validateInput } from '../../lib/human/validate-input.ts';
import type { HumanService } from './service.ts';
import { fresh } from './task-actions.ts';
import type { Delivery } from '../../lib/human/delivery-form.ts';
import { isPhoto } from '../../lib/human/uploads.ts';

function verified(svc: HumanService, workerId: number) {
  const worker = workerOf(svc.db, workerId);
  if (!isVerified(worker)) throw forbiddenScope('Only people verified by an operator can take tasks.');
  return worker;
}

/** A live task this person may act on: offered to them (accept) or already theirs (everything else). */
function liveTask(svc: HumanService, ref: string): TaskRow {
  const task = taskByRef(svc.db, ref);
  if (!task || task.environment !== 'live') throw notFound(`No task ${ref}.`);
  return task;
}

function ownedBy(svc: HumanService, workerId: number, ref: string): TaskRow {
  const task = liveTask(svc, ref);
  if (task.worker_account_id !== workerId) throw notFound(`No task ${ref} of yours.`);
  return task;
}

export async function acceptTask(svc: HumanService, workerId: number, ref: string, now: number): Promise<TaskRow> {
  verified(svc, workerId);
  const task = liveTask(svc, ref);
  if (task.account_id === workerId || !inAreas(svc.db, workerId, task))
    throw notFound(`No task ${ref} offered to you.`);
  return svc.writer.submit(() =>
    transition(svc.db, fresh(svc.db, task), 'accept', {
      now,
      actor: `worker:${workerId}`,
      delayMs: svc.config.sandboxDelayMs,
      set: { worker_account_id: workerId },
    }),
  );
}

export async function startTask(svc: HumanService, workerId: number, ref: string, now: number): Promise<TaskRow> {
  const task = ownedBy(svc, workerId, ref);
  return svc.writer.submit(() =>
    transition(svc.db, fresh(svc.db, task), 'start', {
      now,
      actor: `worker:${workerId}`,
      delayMs: svc.config.sandboxDelayMs,
    }),
  );
}

export async function cannotDo(
  svc: HumanService,
  workerId: number,
  ref: string,
  reason: string,
  now: number,
): Promise<TaskRow> {
  const task = ownedBy(svc, workerId, ref);
  const text = reason.trim();
  if (text.length < 5 || text.length > 1000)
    throw invalidRequest('Say why you cannot do it, in 5 to 1000 characters.', 'reason');
  return svc.writer.submit(() =>
    transition(svc.db, fresh(svc.db, task), 'cannot_do', {
      now,
      actor: `worker:${workerId}`,
      delayMs: svc.config.sandboxDelayMs,
      set: { failure_reason: text },
    }),
  );
}

// The delivery's shape is decided by the pure form reader (lib/human/delivery-form.ts); re-exported for callers.
export type { Delivery };

export async function deliverTask(
  svc: HumanService,
  workerId: number,
  ref: string,
  delivery: Delivery,
  now: number,
): Promise<TaskRow> {
  const task = ownedBy(svc, workerId, ref);
  const def = definition(task.capability)!;
  const answer = validateInput(def.result, delivery.answer, 'answer.');
  if (!Number.isInteger(delivery.confidenceBps) || delivery.confidenceBps < 0 || delivery.confidenceBps > 10_000) {
    throw invalidRequest('Confidence is a percentage from 0 to 100.', 'confidence');
  }
  const photos = delivery.files.filter((f) => isPhoto(f.mediaType));
  if (!def.evidence.documents && photos.length !== delivery.files.length)
    throw invalidRequest('This task takes photos (JPEG, PNG or WebP), not documents.', 'files');
  if (photos.length < def.evidence.minPhotos)
    throw invalidRequest(`This task needs at least ${def.evidence.minPhotos} photo(s) as evidence.`, 'files');
  if (def.evidence.minPhotos === 0 && delivery.files.length === 0)
    throw invalidRequest('This task needs a photo or a PDF scan of the document as evidence.', 'files');

  const items: NewEvidence[] = delivery.files.map((f) => {
    const exif = f.mediaType === 'image/jpeg' ? readExif(f.bytes) : {};
    const fromExif = exif.latitude !== undefined && exif.longitude !== undefined;
    const position = fromExif
      ? {
          latitude: exif.latitude!,
          longitude: exif.longitude!,
          accuracy_m: exif.accuracyM ?? null,
          position_source: 'exif' as const,
        }
      : delivery.reported
        ? {
            latitude: delivery.reported.latitude,
            longitude: delivery.reported.longitude,
            accuracy_m: delivery.reported.accuracyM,
            position_source: 'reported' as const,
          }
        : { latitude: null, longitude: null, accuracy_m: null, position_source: null };
    return {
      kind: isPhoto(f.mediaType) ? 'photo' : 'document',
      file: f,
      captured_at: exif.capturedAt ?? now,
      captured_source: exif.capturedAt !== undefined ? 'exif' : 'upload',
      ...position,
    };
  });
  if (delivery.note) items.push({ kind: 'note', note: delivery.note });

  return svc.writer.submit(() => {
    const after = transition(svc.db, fresh(svc.db, task), 'deliver', {
      now,
      actor: `worker:${workerId}`,
      delayMs: svc.config.sandboxDelayMs,
      set: { answer: JSON.stringify(answer), confidence_bps: delivery.confidenceBps },
    });
    for (const item of items) addEvidence(svc.db, task.id, item, now);
    return after;
  });
}
