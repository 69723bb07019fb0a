/** image, audio (with a transcript whose words the page script highlights as it plays), links. */
import { Missing, useResolved } from './resolved.js';
import { safeHref } from './safe-href.js';

export function Image({ pointer, alt, caption }: { pointer: string; alt: string; caption?: string }) {
  const image = useResolved().images[pointer];
  return (
    <figure className="fo-figure fo-image">
      {image ? (
        <img
          src={image.src}
          srcSet={image.srcSet}
          sizes="(max-width: 760px) 100vw, 720px"
          alt={alt}
          width={image.width}
          height={image.height}
          loading="lazy"
          decoding="async"
        />
      ) : (
        <Missing what={`Image not available: ${alt}`} />
      )}
      {caption && <figcaption>{caption}</figcaption>}
    </figure>
  );
}

export function Audio({ pointer, title }: { pointer: string; title?: string }) {
  const audio = useResolved().audio[pointer];
  if (!audio?.src) return <Missing what="This recording is not available." />;
  const id = `fo-audio-${pointer.replace(/[^a-z0-9]/gi, '-')}`;
  return (
    <section className="fo-audio" aria-label={title ?? 'Recording'}>
      {title && <p className="fo-audio-title">{title}</p>}
      {/* biome-ignore lint/a11y/useMediaCaption: the transcript beside the player is the text alternative */}
      <audio id={id} controls preload="metadata" src={audio.src} />
      {audio.words && audio.words.length > 0 && (
        <section className="fo-transcript" data-audio={id} aria-label="Transcript">
          {audio.words.map((w, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: words are in order and never reorder
            <span key={i} data-start={w.start} data-end={w.end}>
              {w.text}{' '}
            </span>
          ))}
        </section>
      )}
    </section>
  );
}

type Link = { label: string; href: string; description?: string };

export function Links({ items, style = 'list' }: { items: Link[]; style?: 'list' | 'buttons' }) {
  const safe = items.map((item) => ({ ...item, href: safeHref(item.href) }));
  return (
    <ul className={style === 'buttons' ? 'fo-buttons' : 'fo-links'}>
      {safe.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: links have no identity beyond their order
        <li key={i}>
          {item.href ? (
            <a
              href={item.href}
              target="_blank"
              rel="noopener noreferrer"
              className={style === 'buttons' ? (i === 0 ? 'fo-button fo-primary' : 'fo-button') : undefined}
            >
              {item.label}
            </a>
          ) : (
            <span>{item.label}</span>
          )}
          {item.description && style === 'list' && <span className="fo-link-note">{item.description}</span>}
        </li>
      ))}
    </ul>
  );
}
