import { z } from 'zod';
import { pageQuerySchema } from '../../platform/http/pagination.js';
import { page } from '../../platform/http/response-schemas.js';
import type { AuthedEndpoint } from '../../platform/http/types.js';
import { publicProfileSchema } from '../accounts/account-api.js';
import { browseQuerySchema } from './browse-api.js';

const scoreBreakdownSchema = z
  .object({
    interests: z.number().describe('The shared interests, rarer ones weighing more, squashed to 0–0.25.'),
    reciprocal: z
      .number()
      .describe(
        "0–1: the harmonic mean of both sides' interest in each other. Each side's interest is its taste's fit for the other's gender and age (per gender (likes + 1) / (swipes + 2), one half before any swipe; a bell curve over age around its own, 8 years wide, until it liked three), times 0.3 + 0.7 × the share of its interest weight the two have in common. Before anyone swiped: 0.5 for two accounts of one age holding the same interests, 0.15 for two sharing none.",
      ),
    liked_you: z.boolean().describe('The candidate has already liked or super liked you; such a candidate gets +1.'),
    recency: z.number().describe('0–0.1: how lately the candidate was active (feed reads, swipes), falling to 0 over 14 days.'),
    total: z.number().describe('interests + reciprocal + (1 when liked_you) + recency, as of this read.'),
  })
  .meta({ id: 'ScoreBreakdown' });

const feedEntrySchema = z
  .object({
    user: publicProfileSchema,
    score: z.number().describe("The score the entry is ordered by: its total when the feed was last ranked (the rest's entries: the total now)."),
    score_breakdown: scoreBreakdownSchema,
    shared_interests: z.array(z.string()),
  })
  .meta({ id: 'FeedEntry' });

const feedPageSchema = page(feedEntrySchema).extend({
  remaining: z.number().int().min(0).meta({
    description:
      'About how many candidates you have not swiped are left in your whole feed (not only after this page): your pool less you and your standing swipes. Approximate: it counts down as you swipe, and grows as passes expire or are undone and as accounts join.',
  }),
  exhausted: z.boolean().meta({
    description:
      'True when no unswiped candidate is left (remaining is 0): browse with other filters and like there, wait for your passes to expire, or undo your last pass (DELETE /api/v1/likes/{user_id}).',
  }),
});

const feed: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/discovery/feed',
  auth: true,
  doc: {
    summary:
      "The caller's swipe queue, best first: accounts of the caller's pool ranked by a reciprocal score (shared interests, rarer ones weighing more; how well each side fits what the other's swipes show it likes; a lift for whoever already liked the caller; recent activity; each entry's score_breakdown shows the parts), then everyone else, newest first. Never the caller, nor anyone already swiped (a pass stops hiding its target when it expires, after PASS_EXPIRY_DAYS, or is undone). `remaining` says about how many unswiped candidates are left, `exhausted` whether none is.",
    tags: ['discovery'],
    query: pageQuerySchema,
    response: { status: 200, schema: feedPageSchema, description: 'A page of feed entries, and about how many candidates are left.' },
    errors: [400, 401, 429],
  },
};

const browse: AuthedEndpoint = {
  method: 'GET',
  path: '/api/v1/discovery/browse',
  auth: true,
  doc: {
    summary:
      "Search the caller's pool, newest first. Filters combine with AND: min_age, max_age, age, gender (comma list), interests (comma list, interests_mode any|all), city, state (case-insensitive). Each page searches within a fixed budget: a page may hold fewer than `limit` items, even none, and still have a next_cursor; only a null next_cursor ends the list.",
    tags: ['discovery'],
    query: browseQuerySchema,
    response: { status: 200, schema: page(publicProfileSchema), description: 'A page of public profiles.' },
    errors: [400, 401, 429],
  },
};

/** The discovery routes as declared (discovery-routes.ts gives each its handler). */
export const discoveryEndpoints = { feed, browse };
