/**
 * A report's photos: thumbnails at once, a full-size view with the keyboard (← → move, Esc closes) and a
 * delete per photo. Bytes come through the engine (the photos need the bearer token).
 */
import { useEffect, useMemo, useState } from 'react';
import { Modal } from '../../ui/Modal.tsx';
import { useQueries } from '@tanstack/react-query';
import type { ReportPhoto } from '../../../contract/entities.ts';
import { photoBlobQuery } from '../../engine/photo-blob.ts';
import { formatBytes } from '../../ui/format.ts';

/** An image from bytes in memory; the object URL lives as long as the element. */
export function BlobImage({ blob, alt, className, photoId }: { blob: Blob; alt: string; className?: string; photoId?: number }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt={alt} className={className} data-photo-id={photoId} />;
}

interface GalleryProps {
  photos: ReportPhoto[];
  onDelete?: (photo: ReportPhoto) => void;
  disabled?: boolean;
}

export function Gallery({ photos, onDelete, disabled }: GalleryProps) {
  const queries = useQueries({ queries: photos.map((photo) => photoBlobQuery(photo)) });
  const [open, setOpen] = useState<number | null>(null);

  if (photos.length === 0) return <p className="muted">Фото к отчёту не приложены.</p>;
  return (
    <>
      <ul className="gallery" aria-label="Фото отчёта">
        {photos.map((photo, index) => (
          <li key={photo.id} className="gallery-item">
            <button type="button" className="gallery-thumb" onClick={() => setOpen(index)} aria-label={`Фото ${index + 1} из ${photos.length}: открыть`}>
              {queries[index]?.data ? (
                <BlobImage blob={queries[index].data} alt={`Фото ${index + 1}`} photoId={photo.id} />
              ) : queries[index]?.isError ? (
                <span className="muted">Фото не загрузилось</span>
              ) : (
                <span className="skeleton gallery-skeleton" />
              )}
            </button>
            <div className="gallery-caption muted">
              {photo.width && photo.height ? `${photo.width}×${photo.height} · ` : ''}{formatBytes(photo.size)}
            </div>
          </li>
        ))}
      </ul>
      {open !== null && (
        <Lightbox
          index={open}
          total={photos.length}
          blob={queries[open]?.data ?? null}
          onMove={(next) => setOpen((next + photos.length) % photos.length)}
          onClose={() => setOpen(null)}
          onDelete={onDelete && !disabled ? () => {
            const photo = photos[open];
            setOpen(null);
            if (photo) onDelete(photo);
          } : undefined}
        />
      )}
    </>
  );
}

function Lightbox({
  index,
  total,
  blob,
  onMove,
  onClose,
  onDelete,
}: {
  index: number;
  total: number;
  blob: Blob | null;
  onMove: (index: number) => void;
  onClose: () => void;
  onDelete: (() => void) | undefined;
}) {
  return (
    <Modal
      className="lightbox"
      aria-label={`Фото ${index + 1} из ${total}`}
      onClose={onClose}
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight') onMove(index + 1);
        if (event.key === 'ArrowLeft') onMove(index - 1);
      }}
    >
      <div className="lightbox-bar">
        <span>
          Фото {index + 1} из {total}
        </span>
        <span className="lightbox-actions">
          {onDelete && (
            <button type="button" className="button button-small button-danger" onClick={onDelete}>
              Удалить фото
            </button>
          )}
          <button type="button" className="button button-small" onClick={onClose} autoFocus>
            Закрыть (Esc)
          </button>
        </span>
      </div>
      <div className="lightbox-body">
        {total > 1 && (
          <button type="button" className="lightbox-nav" aria-label="Предыдущее фото" onClick={() => onMove(index - 1)}>
            ‹
          </button>
        )}
        {blob ? <BlobImage blob={blob} alt={`Фото ${index + 1} из ${total}`} className="lightbox-img" /> : <span className="muted">Загрузка...</span>}
        {total > 1 && (
          <button type="button" className="lightbox-nav" aria-label="Следующее фото" onClick={() => onMove(index + 1)}>
            ›
          </button>
        )}
      </div>
    </Modal>
  );
}
