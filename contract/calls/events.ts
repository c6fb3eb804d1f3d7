/**
 * The live change feed (server/events/feed.ts, server/routes/EVENTS.md): GET /events/ answers a
 * text/event-stream, not JSON — the engine reads it with fetch (worker/feed.ts), so no screen calls it by key
 * and its answer has no type here. The table registers it behind the usual guard.
 */
import { answer, area, GET } from '../call.ts';
import { ALL_ROLES } from '../roles.ts';

export const eventCalls = area(GET('/events/', { roles: ALL_ROLES, answer: answer<undefined>() }));
