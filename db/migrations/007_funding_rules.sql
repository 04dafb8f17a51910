-- Funding data rules (issue 13): how each deadline was obtained, what kind of notice each BOE item
-- is and which call it refers to, and a log of rule re-applications.

-- JSON, lib/funding/relative-deadline.ts DeadlineSource: {"kind":"stated"} | {"kind":"computed",…} |
-- {"kind":"uncomputed",…}; null when the source says nothing about a deadline. Rows imported before
-- this migration get theirs from `funding reapply-rules` (or their next import).
ALTER TABLE funding_calls ADD COLUMN deadline_source TEXT;

-- call | bases | correction | modification | award | other (lib/funding/notice-kind.ts). Only 'call'
-- items become calls; the others are served in their call's `notices`.
ALTER TABLE funding_notices ADD COLUMN kind TEXT NOT NULL DEFAULT 'call'
  CHECK (kind IN ('call', 'bases', 'correction', 'modification', 'award', 'other'));
-- What the notice refers to besides its BDNS id: a BOE identifier named in it, or the disposition it
-- corrects, modifies or resolves ("resolucion 2025-10-27", "orden cnu/1230/2025").
ALTER TABLE funding_notices ADD COLUMN refers_to TEXT;
CREATE INDEX funding_notices_refers ON funding_notices(refers_to) WHERE refers_to IS NOT NULL;

-- Each `funding reapply-rules` run: what it changed. Also moves the corpus generation (cached search
-- responses made before it are dropped).
CREATE TABLE funding_rule_runs (
  id         INTEGER PRIMARY KEY,
  ran_at     INTEGER NOT NULL,
  calls      INTEGER NOT NULL,
  withheld   INTEGER NOT NULL,   -- served before, withheld now
  released   INTEGER NOT NULL,   -- withheld before, served now
  deadlines  INTEGER NOT NULL,   -- calls whose deadline or deadline_source changed
  unserved   INTEGER NOT NULL    -- boe: calls removed because their item is a notice, not a call
);
