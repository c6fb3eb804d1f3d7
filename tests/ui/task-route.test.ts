/**
 * The staff task list names the customer under the route (issue 31: «every list shows the names»), on the desktop
 * row and the phone's card; a task without one shows the route alone.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TaskCard, TaskRoute } from '../../src/screens/tasks-manage/columns.tsx';
import { wireTask } from '../fixtures/wire.ts';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
const named = wireTask({ loading_place: 'Карьер Гранит', unloading_place: 'ЖК Северный', customer: { id: 4, name: 'ООО «Дорстрой»', inn: '7724159038' } });

describe('the task list’s route', () => {
  it('names the customer under the route, in the row and on the card; without one, the route alone', () => {
    expect(text(renderToStaticMarkup(createElement(TaskRoute, { task: named })))).toBe('Карьер Гранит → ЖК Северный Заказчик: ООО «Дорстрой»');
    expect(text(renderToStaticMarkup(createElement(TaskCard, { task: named, actions: null })))).toContain('Заказчик: ООО «Дорстрой»');
    expect(text(renderToStaticMarkup(createElement(TaskRoute, { task: { ...named, customer: null } })))).toBe('Карьер Гранит → ЖК Северный');
  });
});
