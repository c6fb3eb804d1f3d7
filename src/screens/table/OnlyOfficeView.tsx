/** An export opened read-only in an OnlyOffice Docs server (only when ONLYOFFICE_URL is configured). */
import { useEffect, useState } from 'react';
import type { OnlyOfficeConfig } from '../../../contract/exports.ts';

interface DocsApi {
  DocEditor: new (placeholderId: string, config: Record<string, unknown>) => { destroyEditor?: () => void };
}

export function OnlyOfficeView({ answer }: { answer: OnlyOfficeConfig }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const script = document.createElement('script');
    script.src = `${String(answer.server_url).replace(/\/$/, '')}/web-apps/apps/api/documents/api.js`;
    let editor: { destroyEditor?: () => void } | null = null;
    script.onload = () => {
      const api = (window as unknown as { DocsAPI?: DocsApi }).DocsAPI;
      if (!api) setFailed(true);
      else editor = new api.DocEditor('onlyoffice-editor', { ...answer.config, width: '100%', height: '100%' });
    };
    script.onerror = () => setFailed(true);
    document.head.append(script);
    return () => {
      editor?.destroyEditor?.();
      script.remove();
    };
  }, [answer]);
  if (failed) {
    return (
      <main className="sheet-page sheet-message">
        <h1>Таблица</h1>
        <p role="alert">Сервер документов OnlyOffice недоступен. Скачайте файл из консоли.</p>
      </main>
    );
  }
  return (
    <main className="sheet-page sheet-onlyoffice">
      <div id="onlyoffice-editor" />
    </main>
  );
}
