/**
 * /dispatch «Диспетчерская» (staff): a day's board (docs/dispatch.md). A column «Без водителя» and one per active
 * driver (his trip state and since when — «на погрузке с 10:42», «в пути с грузом», «свободен», «нет данных N мин» —,
 * vehicle, phone, the day's share and delivered, the last report), each driver's tasks in his saved order.
 * Drag a card onto a driver to assign, to another driver to reassign, within a column to reorder, back to «Без
 * водителя» to take off; every drag has a keyboard twin (focus a card: Alt+↑/↓ moves it in its column, Alt+←/→ to
 * the next column, and the focus stays on the moved card; Space selects it, and the bar above assigns the selection:
 * arrows in its driver list only choose, Enter or «Назначить» assigns) and an undo in its toast. A move is
 * shown at once and confirmed by the server; a refused one snaps back with the server's reason. Other tabs and
 * other dispatchers see it through the change feed. The date and company are in the URL.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { showToast } from '../../ui/toasts.ts';
import { DndContext, PointerSensor, TouchSensor, closestCorners, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import type { Board } from '../../../contract/calls/dispatch.ts';
import type { ScreenProps } from '../../app/nav.ts';
import { useGet, useSend } from '../../engine/api.ts';
import { failureMessage } from '../../engine/send.ts';
import { useNeedsServer } from '../../engine/use-online.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';
import { DateInput } from '../../ui/DateInput.tsx';
import { formatDate, plural } from '../../ui/format.ts';
import { TASKS } from '../../../contract/words.ts';
import { Page } from '../../ui/Page.tsx';
import { Empty, Loaded } from '../../ui/states.tsx';
import { useUrlState } from '../../ui/console/use-url-state.ts';
import { isoDate } from '../../ui/format.ts';
import { applyMove, cardKey, columnsOf, driverKey, driverOf, parseCard, type ColumnKey, type Columns } from './columns.ts';
import './dispatch.css';
import { NamedOptions } from '../../ui/Options.tsx';
import { Column } from './BoardColumn.tsx';
import { CompanyPicker, NoCompany, useCompanyScope } from '../../ui/console/company-scope.tsx';

const UNDO_MS = 6000;

export function DispatchScreen({ title }: ScreenProps) {
  const [state, setState] = useUrlState({ date: isoDate(new Date()), company: '' });
  const scope = useCompanyScope(state.company);
  const { superAdmin, companyId } = scope;
  const query = useGet(companyId === null ? null : 'GET /dispatch/board', { date: state.date, ...(superAdmin && companyId !== null ? { company_id: companyId } : {}) });

  return (
    <Page title={title} wide>
      <div className="dispatch-tools">
        <label className="dispatch-date">
          Дата
          <DateInput aria-label="Дата" value={state.date} onValue={(date) => setState({ date })} />
        </label>
        <CompanyPicker scope={scope} onChange={(company) => setState({ company })} />
        {query.data && <CacheNote fromCache={query.data.fromCache} storedAt={query.data.storedAt} />}
      </div>
      {companyId === null ? (
        <NoCompany scope={scope} />
      ) : (
        <Loaded query={query} loading="Собираем доску...">
          {(board) => (
        <BoardView key={`${board.company_id}:${board.date}`} board={board} />
          )}
        </Loaded>
      )}
    </Page>
  );
}

function BoardView({ board: fetched }: { board: Board }) {
  const server = useNeedsServer();
  const move = useSend('POST /dispatch/move');
  const assign = useSend('POST /dispatch/assign');
  // A move's answer is the board after it: shown until the refetch it set off arrives, so a moved card never jumps
  // back to its old place in between (and a second Alt+↑ pressed then counts from where the card is seen).
  // `over`: the fetched board it was answered over; any newer fetch wins.
  const [answered, setAnswered] = useState<{ board: Board; over: Board } | null>(null);
  const board = answered?.over === fetched ? answered.board : fetched;
  const [optimistic, setOptimistic] = useState<Columns | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [choice, setChoice] = useState('');
  const [boardRef, wishFocus] = useFocusWish();
  const columns = optimistic ?? columnsOf(board);
  const tasks = new Map(board.tasks.map((t) => [t.id, t]));
  const order: ColumnKey[] = ['none', ...board.drivers.map((d) => driverKey(d.id))];
  const nameOf = (key: ColumnKey) => (key === 'none' ? '«Без водителя»' : (board.drivers.find((d) => driverKey(d.id) === key)?.name ?? 'водитель'));
  // «у водителя: Дмитрий Морозов» — the name stays as it is written, whatever the sentence's case.
  const whereIs = (key: ColumnKey) => (key === 'none' ? 'без водителя' : `у водителя: ${nameOf(key)}`);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(TouchSensor, { activationConstraint: { delay: 180, tolerance: 6 } }));

  /** The move; false when it was not made (offline, refused). */
  async function doMove(taskId: number, from: ColumnKey, to: ColumnKey, index: number, undo = false): Promise<boolean> {
    if (server.offline) {
      showToast('error', server.reason ?? 'Нет связи с сервером');
      return false;
    }
    const before = columns.get(from)?.indexOf(taskId) ?? 0;
    setOptimistic(applyMove(columns, taskId, from, to, index));
    const cargo = tasks.get(taskId)?.cargo ?? `задача №${taskId}`;
    try {
      const after = await move.mutateAsync({ body: { task_id: taskId, from_driver_id: driverOf(from), to_driver_id: driverOf(to), index, date: board.date } });
      setAnswered({ board: after, over: fetched });
      if (!undo) {
        const text = from === to ? `«${cargo}»: место ${index + 1} ${whereIs(to)}` : `«${cargo}» → ${nameOf(to)}`;
        showToast('success', 
          ({ closeToast }) => (
            <span className="dispatch-toast">
              {text}
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  closeToast();
                  void doMove(taskId, to, from, before, true);
                }}
              >
                Отменить
              </button>
            </span>
          ),
          { autoClose: UNDO_MS },
        );
      } else showToast('info', `Отменено: «${cargo}» снова ${whereIs(to)}`);
      return true;
    } catch (error) {
      showToast('error', failureMessage(error));
      return false;
    } finally {
      setOptimistic(null);
    }
  }

  async function assignSelected(driverId: number): Promise<void> {
    const cards = [...selected].map(parseCard);
    const target = driverKey(driverId);
    setSelected(new Set());
    if (cards.every((c) => c.column === 'none')) {
      try {
        const { results, board: after } = await assign.mutateAsync({ body: { task_ids: cards.map((c) => c.taskId), driver_id: driverId, date: board.date } });
        setAnswered({ board: after, over: fetched });
        const refused = results.filter((r) => !r.ok);
        const ok = results.length - refused.length;
        if (ok > 0) showToast('success', `${nameOf(target)}: ${plural(ok, ['задача назначена', 'задачи назначены', 'задач назначено'])}`);
        for (const r of refused) showToast('error', `№${r.task_id}: ${r.detail ?? 'не назначена'}`);
      } catch (error) {
        showToast('error', failureMessage(error));
      }
      return;
    }
    for (const c of cards) if (c.column !== target) await doMove(c.taskId, c.column, target, columns.get(target)?.length ?? 0);
  }

  function assignChoice(): void {
    if (!choice) return;
    setChoice('');
    void assignSelected(Number(choice));
  }

  /** A move from the keyboard: the focus goes with the card to its new place, or stays where it was when refused. */
  async function keyMove(taskId: number, from: ColumnKey, to: ColumnKey, index: number): Promise<void> {
    wishFocus(cardKey(to, taskId));
    if (!(await doMove(taskId, from, to, index))) wishFocus(cardKey(from, taskId));
  }

  function onDragEnd({ active, over }: DragEndEvent): void {
    if (!over) return;
    const from = parseCard(String(active.id));
    const overCard = String(over.id).includes(':') ? parseCard(String(over.id)) : null;
    const to = overCard ? overCard.column : (String(over.id) as ColumnKey);
    const target = columns.get(to) ?? [];
    const index = overCard ? target.indexOf(overCard.taskId) : target.length;
    if (from.column === to && (columns.get(to) ?? []).indexOf(from.taskId) === index) return;
    if (from.column !== to && to !== 'none' && target.includes(from.taskId)) return void showToast('error', 'Этот водитель уже на задаче');
    void doMove(from.taskId, from.column, to, index);
  }

  function onCardKey(event: KeyboardEvent<HTMLElement>, column: ColumnKey, taskId: number): void {
    const list = columns.get(column) ?? [];
    const at = list.indexOf(taskId);
    if (event.key === ' ' || event.key === 'Enter') {
      event.preventDefault();
      const key = cardKey(column, taskId);
      const next = new Set(selected);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      setSelected(next);
      return;
    }
    if (!event.altKey) return;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      if (column === 'none') return;
      event.preventDefault();
      const to = at + (event.key === 'ArrowUp' ? -1 : 1);
      if (to >= 0 && to < list.length) void keyMove(taskId, column, column, to);
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      const next = order[order.indexOf(column) + (event.key === 'ArrowLeft' ? -1 : 1)];
      if (next && !(columns.get(next) ?? []).includes(taskId)) void keyMove(taskId, column, next, columns.get(next)?.length ?? 0);
    }
  }

  const selectedCards = [...selected].map(parseCard);
  return (
    <>
      <p className="muted dispatch-help">
        Перетащите карточку на водителя — назначить, в колонке — изменить порядок, в «Без водителя» — снять. С клавиатуры: Tab до карточки,
        Alt+↑/↓ — выше/ниже, Alt+←/→ — в соседнюю колонку, Пробел — выбрать несколько и назначить в панели сверху. Каждое действие можно
        отменить в уведомлении.
      </p>
      <div className="dispatch-bar" role="toolbar" aria-label="Выбранные задачи" hidden={selected.size === 0}>
        <span>Выбрано: {plural(selected.size, TASKS)}</span>
        {/* Choosing is not assigning: the browser's arrows change a closed select's value (and fire change). */}
        <label>
          Назначить водителю
          <select
            value={choice}
            disabled={server.offline || assign.isPending}
            onChange={(event) => setChoice(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              assignChoice();
            }}
          >
            <option value="">— выберите —</option>
            <NamedOptions items={board.drivers} />
          </select>
        </label>
        <button type="button" className="button button-small button-primary" disabled={!choice || server.offline || assign.isPending} onClick={assignChoice}>
          Назначить
        </button>
        {selectedCards.some((c) => c.column !== 'none') && (
          <button
            type="button"
            className="button button-small"
            disabled={server.offline}
            onClick={() => {
              setSelected(new Set());
              void (async () => {
                for (const c of selectedCards) if (c.column !== 'none') await doMove(c.taskId, c.column, 'none', 0);
              })();
            }}
          >
            Снять с водителя
          </button>
        )}
        <button type="button" className="button button-small button-quiet" onClick={() => setSelected(new Set())}>
          Снять выделение
        </button>
      </div>
      <DndContext sensors={sensors} collisionDetection={closestCorners} onDragEnd={onDragEnd}>
        {/* Busy while a move is drawn but not yet answered: the columns are then what the dispatcher made, not yet the server's. */}
        <div className="dispatch-board" aria-label={`Доска на ${formatDate(board.date)}`} aria-busy={optimistic !== null} ref={boardRef}>
          {order.map((key) => (
            <Column
              key={key}
              column={key}
              driver={board.drivers.find((d) => driverKey(d.id) === key) ?? null}
              taskIds={columns.get(key) ?? []}
              tasks={tasks}
              selected={selected}
              onKey={onCardKey}
              onSelect={(card, add) => {
                const next = new Set(add ? selected : []);
                if (add && next.has(card)) next.delete(card);
                else next.add(card);
                setSelected(next);
              }}
            />
          ))}
        </div>
      </DndContext>
      {board.drivers.length === 0 && <Empty>В компании нет активных водителей: добавьте их в «Управление водителями».</Empty>}
    </>
  );
}

/**
 * Where the focus goes after a keyboard move: the moved card is drawn anew in its new column (and again when the
 * server's board replaces the drawn move), which drops the focus to the page. After each render the wished card
 * takes it back — only while nothing else has it: a click anywhere, or the focus going elsewhere, drops the wish.
 */
function useFocusWish() {
  const wish = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (wish.current === null || (active !== null && active !== document.body)) return;
    root.current?.querySelector<HTMLElement>(`[data-card="${wish.current}"]`)?.focus();
  });
  useEffect(() => {
    const drop = (event: Event) => {
      if (!(event.target instanceof HTMLElement) || event.type === 'pointerdown' || event.target.dataset.card !== wish.current) wish.current = null;
    };
    document.addEventListener('pointerdown', drop);
    document.addEventListener('focusin', drop);
    return () => {
      document.removeEventListener('pointerdown', drop);
      document.removeEventListener('focusin', drop);
    };
  }, []);
  return [root, (key: string) => void (wish.current = key)] as const;
}
