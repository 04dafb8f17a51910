-- Funding sources as they really are (issue 25).
--
-- A BDNS call whose period is only prose keeps the words on when it starts (textInicio: "Des de
-- l'endemà de la publicació en el diari oficial"), which a bare period ("15 Dies Hàbils") counts from,
-- and the bulletin publications its detail lists (anuncios[]: BOE, DOGC, BOP… with their day), which
-- such periods count from. JSON [{"date","id","bulletin"}], ascending by date.
ALTER TABLE funding_calls ADD COLUMN opening_text TEXT;
ALTER TABLE funding_calls ADD COLUMN publications TEXT NOT NULL DEFAULT '[]';

-- A sync run counts notices (BOE items that are not calls, and the BOE extracts a BDNS detail lists)
-- apart from calls: "inserted" is calls only.
ALTER TABLE funding_sync_runs ADD COLUMN notices INTEGER NOT NULL DEFAULT 0;
