// Bytes a cache keeps should hold only themselves. zlib's synchronous calls answer with a view of the 16 kB chunk
// they wrote into, and Buffer.from a view of an 8 kB pool shared with other allocations: a 2 kB compressed answer
// kept in a cache held 16 kB. The page cache's 20 MB of pages at 10× the demo content held 130 MB this way.

/** `bytes` if they are the whole of their memory, else a copy that is. */
export function ownedBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}
