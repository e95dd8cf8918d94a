// Public entry of the package: the embedding API (docs/embedding.md).
export { openCalendar, Calendar, type CalendarOptions } from './calendar.ts';
export { ResourceApi } from './resource-api.ts';
export { CalendarError } from './api/wordpress/errors.ts';
export type { ImportData, ImportSummary } from './import/index.ts';
export type {
  Actor,
  AsArg,
  Page,
  Params,
  RestCall,
  RestResult,
  Role,
  User,
  SiteConfig,
} from './api/wordpress/types.ts';
export { ROLES } from './api/wordpress/types.ts';
