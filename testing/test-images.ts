// Test support: images made with sharp for the media tests (no binary fixtures), one of each type the upload takes,
// a JPEG carrying EXIF with a GPS location, and the things it must refuse.
import sharp from 'sharp';

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'avif';

/** The extension and media type of each kind. */
export const imageKinds: Record<ImageKind, { ext: string; type: string }> = {
  jpeg: { ext: 'jpg', type: 'image/jpeg' },
  png: { ext: 'png', type: 'image/png' },
  webp: { ext: 'webp', type: 'image/webp' },
  avif: { ext: 'avif', type: 'image/avif' },
};

const canvas = (width: number, height: number, background = '#3a7bd5') => sharp({ create: { width, height, channels: 3, background } });

/** A small image of `kind`, `width`×`height`. */
export function makeImage(kind: ImageKind, width = 48, height = 32, background?: string): Promise<Buffer> {
  return canvas(width, height, background).toFormat(kind).toBuffer();
}

/** Where the GPS EXIF of `photoWithGps` says the photo was taken, and the camera it names. */
export const GPS_MARK = { camera: 'VitaeTestCam', latitude: '48/1 51/1 2400/100' };

/** A JPEG with EXIF naming a camera and a GPS location, and an orientation that turns it on its side (6: 90° clockwise). */
export function photoWithGps(width = 60, height = 40): Promise<Buffer> {
  return canvas(width, height, '#c33')
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: GPS_MARK.camera, Model: 'Model X' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: GPS_MARK.latitude, GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' },
    })
    .toBuffer();
}

/** An SVG that runs a script when opened. */
export const SCRIPTED_SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>\n',
);

/** Bytes over the 8 MB limit that start like a PNG. */
export function oversizePng(): Buffer {
  const bytes = Buffer.alloc(8 * 1024 * 1024 + 1024, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

/** A valid PNG wider than the 8000 pixels taken (a few kB: one colour compresses well). */
export function tooWidePng(): Promise<Buffer> {
  return canvas(8001, 4).png().toBuffer();
}
