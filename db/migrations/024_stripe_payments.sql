-- Payments through Stripe (issue 36): prepaid top-ups through Checkout, the funding pro plan as a Stripe
-- subscription, and the signed webhook events that move both (db/billing/, docs/operations.md "Taking
-- payments with Stripe"). Every *_at column is UTC epoch milliseconds; money is integer cents.

-- The ledger learns one journal kind: 'debit', money going back out to the world (a Stripe refund or a
-- lost dispute of a top-up): customer_available −x, external +x. SQLite cannot change a CHECK in
-- place, so the journal and posting tables are rebuilt with their rows; postings are rebuilt too
-- because they reference journals (a parent table cannot be dropped under its children's foreign keys).
CREATE TABLE human_journals_024 (
  id         INTEGER PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('credit', 'debit', 'hold', 'capture', 'release')),
  hold_id    INTEGER REFERENCES human_holds(id),
  memo       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  CHECK ((kind IN ('credit', 'debit')) = (hold_id IS NULL))
);
CREATE TABLE human_postings_024 (
  journal_id        INTEGER NOT NULL REFERENCES human_journals_024(id),
  ledger_account_id INTEGER NOT NULL REFERENCES human_ledger_accounts(id),
  amount            INTEGER NOT NULL CHECK (amount <> 0),
  balance_after     INTEGER NOT NULL,          -- the account's balance once this posting applied
  PRIMARY KEY (journal_id, ledger_account_id)
) WITHOUT ROWID;
INSERT INTO human_journals_024 (id, kind, hold_id, memo, created_at)
  SELECT id, kind, hold_id, memo, created_at FROM human_journals;
INSERT INTO human_postings_024 (journal_id, ledger_account_id, amount, balance_after)
  SELECT journal_id, ledger_account_id, amount, balance_after FROM human_postings;
DROP TABLE human_postings;
DROP TABLE human_journals;
ALTER TABLE human_journals_024 RENAME TO human_journals;
ALTER TABLE human_postings_024 RENAME TO human_postings;
CREATE UNIQUE INDEX human_journals_hold_placed ON human_journals(hold_id) WHERE kind = 'hold';
CREATE UNIQUE INDEX human_journals_hold_resolved ON human_journals(hold_id) WHERE kind IN ('capture', 'release');
CREATE INDEX human_postings_by_account ON human_postings(ledger_account_id, journal_id);

-- A Stripe customer belongs to one account and an account has at most one customer: every Checkout
-- session and portal session of an account names its customer, and an event's customer finds its account.
CREATE TABLE stripe_customers (
  customer_id TEXT PRIMARY KEY,                               -- cus_…
  account_id  INTEGER NOT NULL UNIQUE REFERENCES accounts(id),
  created_at  INTEGER NOT NULL
);

-- Each signed event is processed once: its id is written in the same transaction as its effect. The
-- outcome is what it did, for the operator (`billing report`): credited, debited, subscription,
-- ignored, refused (not credited: another currency, an account mismatch), shortfall (a refund or
-- lost dispute larger than what was still available).
CREATE TABLE stripe_events (
  id          TEXT PRIMARY KEY,                               -- evt_…
  type        TEXT NOT NULL,
  created     INTEGER NOT NULL,                               -- Stripe's creation time (epoch seconds)
  received_at INTEGER NOT NULL,
  account_id  INTEGER REFERENCES accounts(id),
  outcome     TEXT NOT NULL CHECK (outcome IN ('credited', 'debited', 'shortfall', 'subscription', 'ignored', 'refused')),
  detail      TEXT NOT NULL
);
CREATE INDEX stripe_events_by_outcome ON stripe_events(outcome, received_at);

-- A paid Checkout session (mode payment) credited to a prepaid balance: once per session, whatever
-- Stripe retries or however many events name it. refunded_cents is the charge's amount_refunded as last
-- applied (refund events carry the running total, so one arriving late changes nothing).
CREATE TABLE stripe_topups (
  session_id      TEXT PRIMARY KEY,                           -- cs_…
  payment_intent  TEXT UNIQUE,                                -- pi_…
  account_id      INTEGER NOT NULL REFERENCES accounts(id),
  amount_cents    INTEGER NOT NULL CHECK (amount_cents > 0),
  currency        TEXT NOT NULL,
  journal_id      INTEGER NOT NULL UNIQUE REFERENCES human_journals(id),
  refunded_cents  INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
  disputed_cents  INTEGER NOT NULL DEFAULT 0 CHECK (disputed_cents >= 0),
  created_at      INTEGER NOT NULL,
  CHECK (refunded_cents + disputed_cents <= amount_cents)
);

-- Money Stripe gave back to the payer (a refund) or took back (a lost dispute), and what of it the
-- balance could still give up: debited_cents left the available balance; shortfall_cents could not
-- (already spent or held), and is reported to the operator.
CREATE TABLE stripe_reversals (
  id              INTEGER PRIMARY KEY,
  session_id      TEXT NOT NULL REFERENCES stripe_topups(session_id),
  kind            TEXT NOT NULL CHECK (kind IN ('refund', 'dispute')),
  source_id       TEXT NOT NULL,                              -- the event's charge (refund) or dispute
  requested_cents INTEGER NOT NULL CHECK (requested_cents > 0),
  debited_cents   INTEGER NOT NULL CHECK (debited_cents >= 0),
  shortfall_cents INTEGER NOT NULL CHECK (shortfall_cents >= 0),
  journal_id      INTEGER UNIQUE REFERENCES human_journals(id), -- null when nothing could be debited
  created_at      INTEGER NOT NULL,
  CHECK (debited_cents + shortfall_cents = requested_cents),
  CHECK ((journal_id IS NULL) = (debited_cents = 0))
);
CREATE INDEX stripe_reversals_by_session ON stripe_reversals(session_id);
CREATE UNIQUE INDEX stripe_reversals_one_dispute ON stripe_reversals(source_id) WHERE kind = 'dispute';

-- A Stripe subscription to the funding pro plan, as last read from Stripe (never from the event alone:
-- events can arrive out of order, the subscription's own state cannot).
CREATE TABLE stripe_subscriptions (
  id                   TEXT PRIMARY KEY,                      -- sub_…
  account_id           INTEGER NOT NULL REFERENCES accounts(id),
  customer_id          TEXT NOT NULL REFERENCES stripe_customers(customer_id),
  status               TEXT NOT NULL,                         -- active, trialing, past_due, canceled, unpaid…
  current_period_end   INTEGER,
  cancel_at_period_end INTEGER NOT NULL CHECK (cancel_at_period_end IN (0, 1)),
  updated_at           INTEGER NOT NULL
);
CREATE INDEX stripe_subscriptions_by_account ON stripe_subscriptions(account_id);

-- Who granted a plan: an operator (`subscription set`) or a Stripe subscription (named).
ALTER TABLE subscriptions ADD COLUMN source TEXT NOT NULL DEFAULT 'operator' CHECK (source IN ('operator', 'stripe'));
ALTER TABLE subscriptions ADD COLUMN stripe_subscription_id TEXT REFERENCES stripe_subscriptions(id);
