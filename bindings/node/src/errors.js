// Errors of RockpointSaver. Contract: every error a saver method throws or
// rejects with, except those raised by the caller's serializer, is an Error
// whose `code` is one of ERROR_CODES:
// - the engine's status names ("NotFound", "InvalidArgument", "Corruption",
//   "IOError", "Busy", "Aborted") for engine failures;
// - "InvalidArgument" for a bad argument (then a TypeError, or a
//   RangeError for a number out of range or an unknown enum value) or a
//   config missing thread_id / checkpoint_id;
// - "Aborted" for a call on a closed saver;
// - "Internal" for a failure inside the addon itself.
// An error wrapping another (a failed open) carries the wrapped one's code
// and keeps it as `cause`.

/** @type {readonly string[]} */
export const ERROR_CODES = Object.freeze([
  "NotFound",
  "InvalidArgument",
  "Corruption",
  "IOError",
  "Busy",
  "Aborted",
  "Internal",
]);

/** A new Error (or TypeError when `type` is TypeError) with `code`. */
export function rockpointError(message, code, { cause, type = Error } = {}) {
  const error = new type(
    message,
    cause === undefined ? undefined : { cause },
  );
  error.code = code;
  return error;
}

/**
 * Gives `error` a code when it has none: "InvalidArgument" for a TypeError
 * (the addon's argument checks), else "Internal". Returns `error`.
 */
export function withCode(error) {
  if (error instanceof Error && typeof error.code !== "string") {
    error.code = error instanceof TypeError ? "InvalidArgument" : "Internal";
  }
  return error;
}

/** Whether `error` is an Error carrying one of ERROR_CODES. */
export function isRockpointError(error) {
  return error instanceof Error && ERROR_CODES.includes(error.code);
}
