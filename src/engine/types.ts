/**
 * The engine's types as the UI uses them: the one place the UI realm takes anything from worker/ (types only;
 * lint refuses a worker/ import anywhere else in src/).
 */
export type {
  AlertItem,
  ApiFailure,
  AuthSnapshot,
  CachedResult,
  ClientErrorReport,
  EngineWrite,
  FormFields,
  NewReport,
  NewTripStep,
  OutboxItemState,
  OutboxItemView,
  OutboxTripStepView,
  Params,
  Result,
  Snapshot,
  WorkerApi,
} from '../../worker/api.ts';
