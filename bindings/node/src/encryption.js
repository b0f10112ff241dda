// The `encryptionKey` option of RockpointSaver: encryption at rest
// (docs/ENCRYPTION.md). A RocksDB store opened with a key seals every record
// (checkpoints with their metadata, channel values, pending writes) with
// AES-256-GCM under it; identifiers (thread ids, namespaces, checkpoint ids,
// channel names, versions, task ids, run ids) stay in the clear.
//
// A key is a Uint8Array (a Buffer) of 32 bytes or a string of 64 hex digits
// (surrounding whitespace ignored, as in the engine's key files).
// keyBytesOf checks it before anything is opened: a TypeError for another
// type, a RangeError for a wrong length or a character that is not a hex
// digit, both with code "InvalidArgument"; no message repeats the key.
//
// The saver keeps its own copy of the key (so that a caller who wipes or
// reuses the Buffer after the call changes nothing), hands it to the addon
// when the store opens, and zeroes it (wipeKey) once the store is open or
// the saver is closed. The addon wipes its native copies after the open;
// the engine keeps the key for the life of the store. A string key cannot
// be wiped (JS strings are immutable): pass a Buffer to keep the key's
// lifetime in your hands.
import { rockpointError } from "./errors.js";

/** An AES-256 key: 32 bytes; its text form: 64 hex digits. */
export const KEY_BYTES = 32;

const HEX_KEY = /^[0-9a-fA-F]{64}$/;

function typeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: TypeError,
  });
}

function rangeError(message) {
  return rockpointError(`rockpoint: ${message}`, "InvalidArgument", {
    type: RangeError,
  });
}

/** What `value` is, for a message; never its content. */
function kindOf(value) {
  if (Array.isArray(value)) return "an array";
  if (value instanceof ArrayBuffer) return "an ArrayBuffer";
  if (ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? "view"}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/**
 * The key `value` gives, as a new Buffer of 32 bytes (the caller's value is
 * copied, never kept), or undefined when `value` is undefined or null (a
 * plaintext store). Throws the TypeError / RangeError above otherwise.
 */
export function keyBytesOf(value) {
  if (value === undefined || value === null) return undefined;
  if (value instanceof Uint8Array) {
    if (value.byteLength !== KEY_BYTES) {
      throw rangeError(
        `encryptionKey must be ${KEY_BYTES} bytes, got ${value.byteLength}`,
      );
    }
    const key = Buffer.alloc(KEY_BYTES);
    key.set(value);
    return key;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (text.length !== 2 * KEY_BYTES) {
      throw rangeError(
        `encryptionKey as a string must be ${2 * KEY_BYTES} hex digits ` +
          `(${KEY_BYTES} bytes), got ${text.length} characters`,
      );
    }
    if (!HEX_KEY.test(text)) {
      throw rangeError(
        `encryptionKey as a string must be ${2 * KEY_BYTES} hex digits: it ` +
          "has a character that is not one",
      );
    }
    return Buffer.from(text, "hex");
  }
  throw typeError(
    `encryptionKey must be a Buffer or Uint8Array of ${KEY_BYTES} bytes or ` +
      `a string of ${2 * KEY_BYTES} hex digits, got ${kindOf(value)}`,
  );
}

/** Zeroes `key` (a Buffer of keyBytesOf) in place; undefined is a no-op. */
export function wipeKey(key) {
  key?.fill(0);
}
