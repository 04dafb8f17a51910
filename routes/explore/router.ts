/** The type of the explorer's router, which each section's pages register on. */
import type { RouterType } from 'itty-router';
import type { ApiRequest, Reply } from '../../lib/http/types.ts';

export type ExploreRouter = RouterType<ApiRequest, [], Reply>;
