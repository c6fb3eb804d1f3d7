/**
 * A report's upload limits. The server enforces them (413 beyond a cap, 415 for what is not one of the
 * photo types, checked by the bytes); the report form checks the same numbers first, because a queued
 * report the server refuses is retried and, after ten refusals, dropped.
 */

/** Photos per report, counting those an edit keeps. */
export const REPORT_MAX_PHOTOS = 12;
/** Bytes per photo. */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Bytes of all of a report's photos together. */
export const REPORT_MAX_BYTES = 40 * 1024 * 1024;
/** The photo formats the server stores; anything else must have been compressed to JPEG on the device. */
export const REPORT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type ReportPhotoType = (typeof REPORT_PHOTO_TYPES)[number];

/** Trips one report may count (a driver who files once for several trips). */
export const REPORT_MAX_TRIPS = 50;
