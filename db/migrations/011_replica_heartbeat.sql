-- Replication lag (issue 17, docs/scaling.md): the primary writes the time into this one row every
-- REPLICA_HEARTBEAT_MS; a read-only node serving a replicated copy (Litestream, LiteFS) reads it and
-- reports how old its copy is (now - written_at) at /readyz and /metrics. Epoch milliseconds.
CREATE TABLE replica_heartbeat (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  written_at INTEGER NOT NULL,
  -- host:pid of the writer, so an operator can tell which primary the copy follows
  writer TEXT NOT NULL
);
