/** One Russian name per status, defined once for every screen (docs/product.md §4). */
import { DRIVER_STATUSES, REVIEW_STATUSES, TASK_STATUSES, type DriverStatus, type ReviewStatus, type TaskStatus } from '../../contract/entities.ts';

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  open: 'Открыта',
  in_progress: 'В работе',
  completed: 'Выполнена',
  cancelled: 'Отменена',
};

export const DRIVER_STATUS_LABELS: Record<DriverStatus, string> = {
  accepted: 'Принята',
  in_progress: 'В рейсе',
  completed: 'Выполнена',
  cancelled: 'Отменена',
};

export const TASK_STATUS_OPTIONS = TASK_STATUSES.map((value) => ({ value, label: TASK_STATUS_LABELS[value] }));
export const DRIVER_STATUS_OPTIONS = DRIVER_STATUSES.map((value) => ({ value, label: DRIVER_STATUS_LABELS[value] }));

/** Where a report stands in the review of loads (docs/reports-review.md). */
export const REVIEW_LABELS: Record<ReviewStatus, string> = {
  pending: 'Ждёт проверки',
  approved: 'Подтверждён',
  disputed: 'Оспорен',
};
export const REVIEW_OPTIONS = REVIEW_STATUSES.map((value) => ({ value, label: REVIEW_LABELS[value] }));
