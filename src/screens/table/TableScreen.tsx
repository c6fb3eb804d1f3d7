/**
 * /table: a full-screen read-only board, with no header, sidebar or banner (SPEC.md section 2).
 * A titled placeholder until the board's issue fills it.
 */
import { useEffect } from 'react';

export function TableScreen() {
  useEffect(() => {
    document.title = 'Табло — Рейс';
  }, []);
  return (
    <main className="board">
      <h1>Табло задач</h1>
      <p className="state state-empty">Раздел в разработке</p>
    </main>
  );
}
