// Bytes that are the whole of their memory. A view (of zlib's 16 kB output chunk, of Buffer's shared 8 kB pool)
// keeps all of that memory alive, and cannot be transferred to another thread alone: a 2 kB compressed answer kept
// in a cache held 16 kB, and the page cache's 20 MB of pages at 10× the demo content held 130 MB.

/** `bytes` if they are the whole of their memory, else a copy (of the same kind: a Buffer stays a Buffer) that is. */
export function ownedBytes<T extends Uint8Array>(bytes: T): T {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const copy = Buffer.isBuffer(bytes) ? Buffer.allocUnsafeSlow(bytes.byteLength) : new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy as T;
}
