-- Funding search (issue 13): a stemmed, field-aware full-text index, the served deadline as a sort key,
-- and indexes for keyset paging.
--
-- The FTS index holds Snowball keys, not words: funding_index_text(text, language) (registered by
-- db/connection.ts, defined in lib/funding/stem.ts) turns a field into its stemmed, folded keys, and the
-- query compiler (lib/funding/search-query.ts) turns a query into the same keys. The table is contentless
-- (its text would be keys, useless to show) with contentless_delete, so a row leaves the index by rowid.
-- Columns: ids (public id and BDNS id), title, summary, funder, programme, region, body. A match in ids
-- or title ranks first (docs/decisions.md "What a search matches"). Withheld rows are never indexed.
-- The last column, facets, is not text: tokens for filters a text search combines with (zc<country>,
-- zs<source>, zm<YYYYMM of the last cut-off, UTC> or zmnone), so "open calls about X in FR" is an FTS
-- intersection instead of a row lookup per match (db/funding/search.ts). Text is never matched there.

DROP TRIGGER funding_calls_ai;
DROP TRIGGER funding_calls_ad;
DROP TRIGGER funding_calls_au;
DROP TABLE funding_calls_fts;

CREATE VIRTUAL TABLE funding_calls_fts USING fts5(
  ids, title, summary, funder, programme, region, body, facets,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets)
  SELECT seq, funding_index_text(id || ' ' || coalesce(bdns_id, ''), language), funding_index_text(title, language),
         funding_index_text(summary, language), funding_index_text(funder, language), funding_index_text(programme, language),
         funding_index_text(region, language), funding_index_text(body, language),
         'zc' || lower(country) || ' zs' || source || ' zm' || coalesce(strftime('%Y%m', closes_at / 1000, 'unixepoch'), 'none')
  FROM funding_calls WHERE personal_data = 0;

-- The instant the deadline a call serves now closes (of several cut-offs, the next one; the importer
-- stores that cut-off in deadline/deadline_time). Kept by the triggers below from those columns, and
-- moved on by db/funding/served-deadline.ts when a cut-off passes. closes_at stays the LAST cut-off
-- (status); served_closes_at is what sort=deadline and the deadline filters read.
ALTER TABLE funding_calls ADD COLUMN served_closes_at INTEGER;
UPDATE funding_calls SET served_closes_at = funding_closes_at(deadline, deadline_time, time_zone);

CREATE TRIGGER funding_calls_ai AFTER INSERT ON funding_calls BEGIN
  UPDATE funding_calls SET served_closes_at = funding_closes_at(new.deadline, new.deadline_time, new.time_zone) WHERE seq = new.seq;
  INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets)
    SELECT new.seq, funding_index_text(new.id || ' ' || coalesce(new.bdns_id, ''), new.language), funding_index_text(new.title, new.language),
           funding_index_text(new.summary, new.language), funding_index_text(new.funder, new.language),
           funding_index_text(new.programme, new.language), funding_index_text(new.region, new.language),
           funding_index_text(new.body, new.language),
           'zc' || lower(new.country) || ' zs' || new.source || ' zm' || coalesce(strftime('%Y%m', new.closes_at / 1000, 'unixepoch'), 'none')
    WHERE new.personal_data = 0;
END;
CREATE TRIGGER funding_calls_ad AFTER DELETE ON funding_calls BEGIN
  DELETE FROM funding_calls_fts WHERE rowid = old.seq;
END;
-- Only a change to an indexed field or facet (or to personal_data) touches the index.
CREATE TRIGGER funding_calls_au AFTER UPDATE OF id, bdns_id, title, summary, funder, programme, region, body, language,
  country, source, closes_at, personal_data
  ON funding_calls BEGIN
  DELETE FROM funding_calls_fts WHERE rowid = old.seq;
  INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets)
    SELECT new.seq, funding_index_text(new.id || ' ' || coalesce(new.bdns_id, ''), new.language), funding_index_text(new.title, new.language),
           funding_index_text(new.summary, new.language), funding_index_text(new.funder, new.language),
           funding_index_text(new.programme, new.language), funding_index_text(new.region, new.language),
           funding_index_text(new.body, new.language),
           'zc' || lower(new.country) || ' zs' || new.source || ' zm' || coalesce(strftime('%Y%m', new.closes_at / 1000, 'unixepoch'), 'none')
    WHERE new.personal_data = 0;
END;
CREATE TRIGGER funding_calls_served AFTER UPDATE OF deadline, deadline_time, time_zone ON funding_calls BEGIN
  UPDATE funding_calls SET served_closes_at = funding_closes_at(new.deadline, new.deadline_time, new.time_zone) WHERE seq = new.seq;
END;

-- Deadline order (and the status ranges) on the served deadline; calls without one last
-- (253402300799999 = 9999-12-31T23:59:59.999Z). closes_at and the other status inputs stay in the
-- index so status is still decided from it alone.
DROP INDEX funding_calls_closes;
DROP INDEX funding_calls_country_closes;
CREATE INDEX funding_calls_closes
  ON funding_calls(coalesce(served_closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, country, source)
  WHERE personal_data = 0;
CREATE INDEX funding_calls_country_closes
  ON funding_calls(country, coalesce(served_closes_at, 253402300799999), id, closes_at, source_status, opens_at, published_on, source)
  WHERE personal_data = 0;
-- Publication order for keyset paging: (published day, id), newest first, calls without a day last.
DROP INDEX funding_calls_published;
DROP INDEX funding_calls_country_published;
CREATE INDEX funding_calls_published ON funding_calls(coalesce(published_on, ''), id) WHERE personal_data = 0;
CREATE INDEX funding_calls_country_published ON funding_calls(country, coalesce(published_on, ''), id) WHERE personal_data = 0;
-- Calls serving a cut-off that is not their last: the few whose served deadline moves on with time.
CREATE INDEX funding_calls_served_pending ON funding_calls(served_closes_at) WHERE served_closes_at < closes_at;
