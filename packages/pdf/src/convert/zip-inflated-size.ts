// Zip layout from PKWARE's APPNOTE.TXT: §4.3.16 end of central directory record, §4.3.12
// central directory file header, §4.3.14-15 and §4.5.3 for the ZIP64 variants.
const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;

/** What a zip's central directory says: its entry names and their total uncompressed size. */
export type ZipDirectory = { names: string[]; inflatedSize: number };

/**
 * The total uncompressed size a zip (docx, odt) declares for its entries, read from its central
 * directory without inflating anything; undefined when `bytes` is not a readable zip. A small
 * file that declares gigabytes is a zip bomb and is refused before LibreOffice unpacks it.
 */
export function zipInflatedSize(bytes: Uint8Array): number | undefined {
  return readZipDirectory(bytes)?.inflatedSize;
}

/** The central directory of a zip, without inflating anything; undefined when it is not a readable zip. */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number): number => view.getUint16(at, true);
  const u32 = (at: number): number => view.getUint32(at, true);
  const u64 = (at: number): number => Number(view.getBigUint64(at, true));
  try {
    // The EOCD record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
    let eocd = -1;
    for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 65535); at--) {
      if (u32(at) === EOCD) {
        eocd = at;
        break;
      }
    }
    if (eocd < 0) return undefined;
    let entries = u16(eocd + 10);
    let offset = u32(eocd + 16);
    if ((entries === 0xffff || offset === 0xffffffff) && eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
      const zip64 = u64(eocd - 20 + 8);
      if (u32(zip64) !== ZIP64_EOCD) return undefined;
      entries = u64(zip64 + 32);
      offset = u64(zip64 + 48);
    }
    let total = 0;
    const names: string[] = [];
    for (let i = 0; i < entries; i++) {
      if (u32(offset) !== CENTRAL_HEADER) return undefined;
      let size = u32(offset + 24);
      const nameLength = u16(offset + 28);
      const extraLength = u16(offset + 30);
      const commentLength = u16(offset + 32);
      if (size === 0xffffffff) {
        // The ZIP64 extended information extra field (id 1) holds the real size first.
        const extraEnd = offset + 46 + nameLength + extraLength;
        for (let at = offset + 46 + nameLength; at + 4 <= extraEnd; at += 4 + u16(at + 2)) {
          if (u16(at) === 0x0001) {
            size = u64(at + 4);
            break;
          }
        }
      }
      total += size;
      if (offset + 46 + nameLength > bytes.byteLength) return undefined;
      names.push(Buffer.from(bytes.buffer, bytes.byteOffset + offset + 46, nameLength).toString('utf8'));
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return { names, inflatedSize: total };
  } catch {
    // RangeError: offsets point outside the file.
    return undefined;
  }
}
