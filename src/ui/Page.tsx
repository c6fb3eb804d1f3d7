/** A screen's frame: its title (also the document title) and content. */
import { useEffect, type ReactNode } from 'react';

export function Page({
  title,
  aside,
  wide,
  children,
}: {
  title: string;
  aside?: ReactNode;
  /** Console screens use the whole width of a desk monitor. */
  wide?: boolean;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} — Рейс`;
  }, [title]);
  return (
    <section className={wide ? 'page page-wide' : 'page'} aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">{title}</h1>
        {aside}
      </div>
      {children}
    </section>
  );
}
