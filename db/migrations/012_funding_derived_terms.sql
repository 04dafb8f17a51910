-- Funding search, third pass (issue 13): the full-text index gains a `derived` column of single terms
-- for a title match (`_t<key>`) and for two keys in a row (`_q<a>_<b>`, and `_p<a>_<b>` within an
-- identifier or the title), written by funding_derived_text (lib/funding/derived-terms.ts) from the
-- keys the text columns hold. A phrase or a title match is then one term's doclist instead of the
-- position lists of every call holding its words (BENCHMARKS.md). `_` becomes a token character so a
-- derived term is one token; no word key holds `_`, so words and derived terms never meet.
-- The facet tokens move to the same `_` namespace (_c<country>, _s<source>, _m<YYYYMM> or _mnone),
-- so no word can match a facet and text terms need no column filter.
--
-- What the index holds for a call is defined once, in the view funding_calls_indexed: the rebuild
-- below and the triggers read it.
--
-- The index is rebuilt from funding_calls (about 8 minutes of one core per million calls; run
-- `funding optimize-index` afterwards on a large corpus). The other columns are as in migration 008.

DROP TRIGGER funding_calls_ai;
DROP TRIGGER funding_calls_ad;
DROP TRIGGER funding_calls_au;
DROP TABLE funding_calls_fts;

CREATE VIRTUAL TABLE funding_calls_fts USING fts5(
  ids, title, summary, funder, programme, region, body, facets, derived,
  content = '', contentless_delete = 1,
  tokenize = "unicode61 remove_diacritics 2 tokenchars '_'", prefix = '2 3'
);

-- The index row of every public call: each text field's keys, the facet tokens and the derived terms.
CREATE VIEW funding_calls_indexed AS
  SELECT seq,
    funding_index_text(id || ' ' || coalesce(bdns_id, ''), language) AS ids,
    funding_index_text(title, language) AS title,
    funding_index_text(summary, language) AS summary,
    funding_index_text(funder, language) AS funder,
    funding_index_text(programme, language) AS programme,
    funding_index_text(region, language) AS region,
    funding_index_text(body, language) AS body,
    '_c' || lower(country) || ' _s' || source || ' _m' || coalesce(strftime('%Y%m', closes_at / 1000, 'unixepoch'), 'none') AS facets,
    funding_derived_text(id || ' ' || coalesce(bdns_id, ''), title, summary, funder, programme, region, body, language) AS derived
  FROM funding_calls WHERE personal_data = 0;

INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets, derived)
  SELECT * FROM funding_calls_indexed;

CREATE TRIGGER funding_calls_ai AFTER INSERT ON funding_calls BEGIN
  UPDATE funding_calls SET served_closes_at = funding_closes_at(new.deadline, new.deadline_time, new.time_zone) WHERE seq = new.seq;
  INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets, derived)
    SELECT * FROM funding_calls_indexed WHERE seq = new.seq;
END;
CREATE TRIGGER funding_calls_ad AFTER DELETE ON funding_calls BEGIN
  DELETE FROM funding_calls_fts WHERE rowid = old.seq;
END;
-- Only a change to an indexed field or facet (or to personal_data) touches the index.
CREATE TRIGGER funding_calls_au AFTER UPDATE OF id, bdns_id, title, summary, funder, programme, region, body, language,
  country, source, closes_at, personal_data
  ON funding_calls BEGIN
  DELETE FROM funding_calls_fts WHERE rowid = old.seq;
  INSERT INTO funding_calls_fts(rowid, ids, title, summary, funder, programme, region, body, facets, derived)
    SELECT * FROM funding_calls_indexed WHERE seq = new.seq;
END;
