/**
 * `funding reapply-rules`: re-runs the funding data rules (personal data, relative deadlines, which
 * BOE items are calls) over every stored row, after a rule or its data (the holiday calendar)
 * changed, and says what it withheld, released, recomputed and stopped serving as a call. The same
 * rules run on every import (db/funding/import.ts); this is for rows stored before the change.
 */
import { reapplyFundingRules, type ReapplySummary } from '../db/funding/rules.ts';
import type { Command } from './command.ts';

export const fundingRuleCommands: Command[] = [
  {
    words: ['funding', 'reapply-rules'],
    summary:
      'Re-apply the funding data rules (personal data, relative deadlines, notices that are not calls) to the stored calls and notices; says how many it withheld and released',
    usage: 'funding reapply-rules',
    options: {},
    run(ctx) {
      return { ...reapplyFundingRules(ctx.openDb(), ctx.now()) };
    },
    text(result) {
      const r = result as unknown as ReapplySummary;
      return [
        `${r.calls} calls checked`,
        `withheld ${r.withheld} (personal data)${r.withheld_ids.length ? `: ${r.withheld_ids.join(', ')}` : ''}`,
        `released ${r.released}${r.released_ids.length ? `: ${r.released_ids.join(', ')}` : ''}`,
        `deadlines recomputed ${r.deadlines}`,
        `no longer served as calls ${r.unserved} (bases, corrections, modifications, award resolutions)`,
        `notices reclassified ${r.notices}`,
      ].join('\n');
    },
  },
];
