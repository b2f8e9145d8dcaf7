/** Settings of `npm start`, validated once. */
export { loadSystemConfig, SystemConfigError, type SystemConfig } from './config.ts';
/** Development CA and localhost certificate in the data dir. */
export { ensureDevTls, type DevTls } from './dev-tls.ts';
/** The processes the whole system runs. */
export { buildSystemPlan, type SystemPlan } from './plan.ts';
/** Starts, streams and stops the parts. */
export { Supervisor, type ProcessSpec } from './supervisor.ts';
/** The whole system's kong.yml, rendered from deploy/kong.yml. */
export { renderKongYml, type RenderOptions } from './render-kong-yml.ts';
