-- Each source's newest published record (issue 34, "data age that tells the truth"): GET /funding/v1/sources,
-- the explorer and /metrics say when a source's newest served call was published, apart from when it was
-- synced or a file loaded. max(published_on) per source is one step down this index, at any corpus size
-- (the published-date index alone is ordered across sources, so a small source would be scanned for).
CREATE INDEX funding_calls_source_published ON funding_calls(source, published_on) WHERE personal_data = 0;
