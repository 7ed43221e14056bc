import { recordInProperty } from '../core/routes/in-property.ts';
import { findPage } from './pages.ts';

/**
 * The page of every route under /properties/:property/content_pages/:page (an id or a slug), declared as the
 * route's `pathRecord`: the pipeline resolves it on the path's property before it reads the body, so another
 * property's page or an unknown one is a 404 whatever the body (README, Configuration surfaces). A write locks it
 * again in its transaction; a keyed retry of a DELETE that went through replays its first answer (the pipeline
 * looks for it before this 404).
 */
export const pathPage = recordInProperty((deps, property, params) => findPage(deps.db, property.id, params.page ?? ''));
