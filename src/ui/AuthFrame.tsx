/** The frame of the public sign-in and sign-up pages: no shell yet, so the brand stands above the form. */
import { useEffect, type ReactNode } from 'react';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} — Рейс`;
  }, [title]);
  return (
    <section className="auth" aria-labelledby="page-title">
      <p className="auth-brand">Рейс</p>
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}
