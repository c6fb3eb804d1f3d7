/** Limits of faster task entry that the form shows before it sends (zod-free, so a screen can import them). */

/** «Повторять» makes at most this many tasks at once (POST /tasks/repeat). */
export const REPEAT_MAX_DATES = 62;
