// An image of the content as a page shows it: its variants in the best format the browser takes (AVIF, then WebP),
// at the width the layout needs (`sizes`), with its width and height set so nothing moves when it arrives. Lazy
// unless it is at the top of the page.
import type { ImageData } from '../utils/types.ts';

export type { ImageData };
import { sitePath } from '../i18n/locales.ts';
import { useRoot } from './root-data.ts';

/** A srcset whose URLs are the site's own paths (the page may be served under another address than BASE_URL). */
const localSrcset = (srcset: string, siteUrl: string) =>
  srcset
    .split(', ')
    .map((part) => {
      const [url, width] = part.split(' ');
      return `${sitePath(url!, siteUrl)} ${width}`;
    })
    .join(', ');

export function Picture({ image, sizes, eager = false, className }: { image: ImageData; sizes: string; eager?: boolean; className?: string }) {
  const { siteUrl } = useRoot();
  const fallback = image.sources.find((s) => s.type === 'image/webp');
  return (
    <picture className={className}>
      {image.sources
        .filter((s) => s !== fallback)
        .map((s) => (
          <source key={s.type} type={s.type} srcSet={localSrcset(s.srcset, siteUrl)} sizes={sizes} />
        ))}
      <img
        src={sitePath(image.url, siteUrl)}
        {...(fallback ? { srcSet: localSrcset(fallback.srcset, siteUrl), sizes } : {})}
        width={image.width}
        height={image.height}
        alt={image.alt}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        // React 18 knows no fetchPriority prop: the attribute as HTML spells it.
        {...(eager ? ({ fetchpriority: 'high' } as Record<string, string>) : {})}
      />
    </picture>
  );
}
