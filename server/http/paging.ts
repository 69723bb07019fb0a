// Lists: newest first, `limit` 1–200 (default 50), an opaque `cursor` from the previous page's `nextCursor`
// (docs/api.md#lists). Shared by every capability's list route.
import { z } from 'zod';

export const PageQuery = {
  limit: z.coerce
    .number({ message: 'limit must be a number between 1 and 200' })
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 200')
    .max(200, 'limit must be between 1 and 200')
    .default(50),
  cursor: z.string().max(200).optional(),
};

/** One page of `rows` (already filtered), newest first, and the cursor for the next one. */
