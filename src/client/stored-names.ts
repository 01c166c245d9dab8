/**
 * The names under which this library stores data on the device (see stored-data.ts), in a module
 * of their own that imports nothing: stored-data.ts, job-database.ts and stored-purge.ts all read
 * them without importing one another in a circle.
 */
export const JOB_DATABASE = 'mediakit-jobs';
export const RESULT_CACHE = 'mediakit-results';
export const RESULT_PATH = '/__mediakit-results/';
/** The folder of the origin's private file system that holds converted videos until they are sent. */
export const CONVERTED_DIR = 'mediakit-converted';
