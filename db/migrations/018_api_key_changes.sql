-- Keys read once, checked on every request (issue 29, db/accounts.ts keyLookup): each process keeps the
-- keys it has looked up in memory and asks the file, on every keyed request, only whether any key changed
-- since (this one row, one read). Every change to what a key may do bumps the generation in the same
-- transaction as the change itself: a key created, revoked, given an expiry, rotated, changed or deleted,
-- by whichever process wrote it (the console in any cluster worker, the CLI, the primary a read-only node
-- copies). So a revoked key is refused on the next request that starts after the revocation commits, on
-- every worker and node. A key's last use, written behind every second, is not a change of what it may do
-- and does not bump it.
CREATE TABLE api_key_changes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  generation INTEGER NOT NULL
);
INSERT INTO api_key_changes (id, generation) VALUES (1, 0);

CREATE TRIGGER api_keys_created AFTER INSERT ON api_keys
BEGIN
  UPDATE api_key_changes SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys
BEGIN
  UPDATE api_key_changes SET generation = generation + 1 WHERE id = 1;
END;

-- Every column but last_used_at.
CREATE TRIGGER api_keys_changed AFTER UPDATE OF
  id, account_id, service, environment, name, hash, display_prefix, scopes, created_at, revoked_at, expires_at,
  rotated_from ON api_keys
BEGIN
  UPDATE api_key_changes SET generation = generation + 1 WHERE id = 1;
END;
