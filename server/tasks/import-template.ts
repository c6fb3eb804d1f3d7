/** The .xlsx template of «Импорт задач из Excel» (docs/task-entry.md): the headers, an example row, «Как заполнить». */
import ExcelJS from 'exceljs';
import { IMPORT_MAX_ROWS } from './xlsx-preflight.ts';

/**
 * The mark in the example row's «комментарий»: a row carrying it is the template's own example, which the import
 * shows but never creates (a user who keeps it and types the day's tasks below expects no «Щебень 20-40» task).
 */
export const EXAMPLE_MARK = 'Пример заполнения — эта строка не импортируется';

/** The template's headers, in order. */
export const IMPORT_HEADERS = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий', 'заказчик'] as const;
export type ImportHeader = (typeof IMPORT_HEADERS)[number];

const HELP: Record<ImportHeader, string> = {
  дата: 'Обязательно. Дата задачи: ячейка-дата Excel или текст 25.11.2026, 25.11.26, 25/11/2026, 2026-11-25.',
  груз: 'Обязательно. Что везём, например «Щебень 20-40».',
  'место погрузки': 'Обязательно. Откуда везём: название места, как оно записано в «Местах». Места, которого там нет, импорт не примет — или создаст его, если отметить «Создать недостающие».',
  'место выгрузки': 'Обязательно. Куда везём: название места из «Мест», как и место погрузки.',
  объём: 'Обязательно. План на задачу, число больше нуля; можно с запятой (12,5) и с пробелами (1 200).',
  единица: 'т или м³ (также «тонн», «м3», «куб»). Пусто — т.',
  ставка: 'Цена для заказчика за единицу (₽ за т или за м³). Можно оставить пустой.',
  водители: 'ФИО или телефоны водителей через запятую или точку с запятой, как они записаны в «Водителях». Можно оставить пустым.',
  комментарий: 'Любой текст для водителей. Можно оставить пустым.',
  заказчик: 'Заказчик из «Контрагентов»: ИНН или точное название. Чтобы импорт создал нового (отметка «Создать недостающие»), укажите название и ИНН через запятую: «ООО Гранит, 7707083893». Можно оставить пустым.',
};

/** Today's date in the server's local time plus `days`, as the UTC midnight Excel stores for that calendar day. */
function localDay(days: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + days));
}

export async function buildImportTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи', { views: [{ state: 'frozen', ySplit: 1 }] });
  const widths: Record<ImportHeader, number> = {
    дата: 12,
    груз: 24,
    'место погрузки': 24,
    'место выгрузки': 24,
    объём: 10,
    единица: 10,
    ставка: 10,
    водители: 28,
    комментарий: 36,
    заказчик: 30,
  };
  sheet.columns = IMPORT_HEADERS.map((header) => ({ header, key: header, width: widths[header] }));
  sheet.getRow(1).font = { bold: true };
  const example = sheet.addRow([localDay(1), 'Щебень 20-40', 'Карьер Гранитный', 'ЖК Северный', 120, 'т', 450, 'Петров Пётр', EXAMPLE_MARK, 'ООО Гранит, 7707083893']);
  example.font = { italic: true, color: { argb: 'FF808080' } };
  sheet.getColumn(1).numFmt = 'dd.mm.yyyy';

  const help = book.addWorksheet('Как заполнить');
  help.columns = [
    { header: 'Столбец', key: 'column', width: 18 },
    { header: 'Как заполнить', key: 'how', width: 100 },
  ];
  help.getRow(1).font = { bold: true };
  for (const header of IMPORT_HEADERS) help.addRow([header, HELP[header]]);
  help.addRow([]);
  help.addRow(['', 'Задачи — на первом листе, заголовки — в первой строке, одна задача на строку. Порядок столбцов любой, лишние столбцы не читаются.']);
  help.addRow(['', `Вторая строка листа «Задачи» — пример: пока в её комментарии «${EXAMPLE_MARK}», она не импортируется. Впишите задачи ниже или удалите её.`]);
  help.addRow(['', `Не больше ${IMPORT_MAX_ROWS} строк в файле. Пустые строки пропускаются. Формулы и объединённые ячейки не принимаются — вставьте значения.`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}
