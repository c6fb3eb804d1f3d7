/**
 * Photos for a report: camera or gallery, a preview of each photo as the engine will compress it,
 * and removal before sending. The originals go to the outbox, which compresses them the same way.
 */
import { useState } from 'react';
import { getEngine } from '../../engine/engine.ts';
import { formatBytes } from '../../ui/format.ts';
import { useObjectUrl } from '../../ui/use-object-url.ts';
import './photos.css';

export interface NewPhoto {
  key: string;
  original: Blob;
  /** The compressed preview; null while the engine is still compressing. */
  preview: Blob | null;
  previewFailed: boolean;
}

export function useNewPhotos() {
  const [photos, setPhotos] = useState<NewPhoto[]>([]);

  async function add(files: Blob[]) {
    const added = files.map((original) => ({ key: crypto.randomUUID(), original, preview: null, previewFailed: false }));
    setPhotos((current) => [...current, ...added]);
    // One at a time: a phone holding several decoded 12 MP images at once runs out of memory.
    for (const photo of added) {
      let preview: Blob | null = null;
      try {
        preview = await getEngine().compressPreview(photo.original);
      } catch (error) {
        console.warn('photo preview failed', error);
      }
      setPhotos((current) =>
        current.map((p) => (p.key === photo.key ? { ...p, preview, previewFailed: preview === null } : p)),
      );
    }
  }

  function remove(key: string) {
    setPhotos((current) => current.filter((p) => p.key !== key));
  }

  return { photos, add: (files: Blob[]) => void add(files), remove };
}

export function PhotoInputs({ onFiles, disabled }: { onFiles: (files: Blob[]) => void; disabled?: boolean }) {
  function take(input: HTMLInputElement) {
    const files = Array.from(input.files ?? []);
    // Cleared so that choosing the same picture again still fires a change.
    input.value = '';
    if (files.length > 0) onFiles(files);
  }
  return (
    <div className="drv-photo-inputs">
      <label className={`drv-btn drv-btn--ghost${disabled ? ' drv-btn--disabled' : ''}`}>
        Сделать фото
        <input
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          disabled={disabled}
          className="drv-visually-hidden"
          onChange={(event) => take(event.currentTarget)}
        />
      </label>
      <label className={`drv-btn drv-btn--ghost${disabled ? ' drv-btn--disabled' : ''}`}>
        Из галереи
        <input
          type="file"
          accept="image/*"
          multiple
          disabled={disabled}
          className="drv-visually-hidden"
          onChange={(event) => take(event.currentTarget)}
        />
      </label>
    </div>
  );
}

interface ThumbProps {
  blob: Blob | null;
  caption: string;
  onRemove?: () => void;
  removeLabel?: string;
  busy?: boolean;
}

export function PhotoThumb({ blob, caption, onRemove, removeLabel = 'Убрать фото', busy }: ThumbProps) {
  const url = useObjectUrl(blob);
  return (
    <li className="drv-thumb">
      {url ? <img src={url} alt="" className="drv-thumb__img" /> : <div className="drv-thumb__img drv-thumb__img--empty" />}
      <span className="drv-thumb__caption">{caption}</span>
      {onRemove ? (
        <button type="button" className="drv-thumb__remove" aria-label={removeLabel} disabled={busy} onClick={onRemove}>
          ×
        </button>
      ) : null}
    </li>
  );
}

export function newPhotoCaption(photo: NewPhoto): string {
  if (photo.preview) return `${formatBytes(photo.original.size)} → ${formatBytes(photo.preview.size)}`;
  if (photo.previewFailed) return `${formatBytes(photo.original.size)}, без сжатия`;
  return 'сжатие...';
}
