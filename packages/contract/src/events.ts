import { z } from 'zod';

// A module of its own (issue 21): every signed-in screen opens the event stream, and importing this from
// auth.ts built all of auth's and the forms' schemas on the way to the first screen.

/** `POST /api/events/ticket`: opens one event stream (`GET /api/events?ticket=`) within 30 seconds. */
export const streamTicketResponse = z.object({
  success: z.literal(true),
  results: z.object({ ticket: z.string(), expiresAt: z.string() }),
});
