/** Every route module, one per area of docs/product.md §7. Each is mounted under /api. */
import type { RouteModule } from '../context.ts';
import { authRoutes } from './auth.ts';
import { clientErrorRoutes } from './client-errors.ts';
import { companyRoutes } from './companies.ts';
import { driverRoutes } from './drivers.ts';
import { registrationRoutes } from './registration.ts';
import { userRoutes } from './users.ts';
import { userAdminRoutes } from './users-admin.ts';
import { taskRoutes } from './tasks.ts';
import { staffTaskRoutes } from './tasks-staff.ts';
import { reportRoutes } from './reports.ts';
import { wageRoutes } from './wages.ts';
import { progressiveRateRoutes } from './progressive-rates.ts';
import { transferRoutes } from './transfers.ts';
import { announcementRoutes } from './announcements.ts';
import { exportRoutes } from './exports.ts';
import { pushRoutes } from './push.ts';
import { auditRoutes } from './audit.ts';
import { payrollRoutes } from './payroll.ts';
import { dispatchRoutes } from './dispatch.ts';
import { taskEntryRoutes } from './task-entry.ts';
import { userSettingsRoutes } from './user-settings.ts';
import { registerRoutes } from './registers.ts';
import { retentionRoutes } from './retention.ts';
import { tripSheetRoutes } from './trip-sheets.ts';
import { priceRoutes } from './prices.ts';
import { tripRoutes } from './trips.ts';
import { paperRoutes } from './papers.ts';
import { statementRoutes } from './statements.ts';
import { customerLinkRoutes } from './customer-links.ts';
import { documentRoutes } from './documents.ts';
import { operatorRoutes } from './operator.ts';

export const routeModules: RouteModule[] = [
  authRoutes,
  userRoutes,
  userAdminRoutes,
  driverRoutes,
  registrationRoutes,
  companyRoutes,
  clientErrorRoutes,
  taskRoutes,
  staffTaskRoutes,
  reportRoutes,
  wageRoutes,
  progressiveRateRoutes,
  transferRoutes,
  announcementRoutes,
  exportRoutes,
  pushRoutes,
  auditRoutes,
  payrollRoutes,
  dispatchRoutes,
  taskEntryRoutes,
  userSettingsRoutes,
  registerRoutes,
  retentionRoutes,
  tripSheetRoutes,
  priceRoutes,
  tripRoutes,
  paperRoutes,
  statementRoutes,
  customerLinkRoutes,
  documentRoutes,
  operatorRoutes,
];
