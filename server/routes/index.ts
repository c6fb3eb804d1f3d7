/** Every route module, one per area of SPEC.md section 7. Each is mounted under /api. */
import type { RouteModule } from '../context.ts';
import { taskRoutes } from './tasks.ts';
import { staffTaskRoutes } from './tasks-staff.ts';
import { reportRoutes } from './reports.ts';
import { wageRoutes } from './wages.ts';

export const routeModules: RouteModule[] = [taskRoutes, staffTaskRoutes, reportRoutes, wageRoutes];
