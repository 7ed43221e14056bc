import type { Principal } from '../core/auth/principal.ts';
import type { Db } from '../core/db/db.ts';
import type { Deps } from '../core/deps.ts';
import { type FieldErrors, notFound, validationError } from '../core/http/api-error.ts';
import { recordEvent } from '../core/outbox.ts';
import { findProperties, isUuid, type PropertyRow } from '../core/resolve.ts';
import type { CatalogueSyncBody } from './model.ts';
import { type Catalogue, catalogueOf, duplicateCodeErrors, EMPTY_CATALOGUE, storeCatalogue } from './service.ts';

type SyncRequest = typeof CatalogueSyncBody.static;

interface PropertyOutcome {
  property_id: string;
  requested_as?: string;
  outcome: 'replaced' | 'cleared' | 'failed';
  error?: string;
}

export interface JobRow {
  external_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  request: { clear_unlisted: boolean };
  outcome: { properties: PropertyOutcome[]; error?: string } | null;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * POST /catalogue-sync: a group-level full replacement. Every listed property (external id or partner
 * code) gets exactly the given catalogue; with `clear_unlisted: true` (default false) every other property the token
 * may act on that still has codes is emptied. All changes commit in one transaction; an entry naming a
 * property outside the token's reach fails alone and is reported in the outcome. The job row keeps the
 * outcome for GET /catalogue-sync/{job}; today the job runs to completion inside the request.
 */
export async function runCatalogueSync(deps: Deps, principal: Principal, body: SyncRequest) {
  const errors: FieldErrors = Object.assign(
    {},
    ...body.properties.map((entry, i) => duplicateCodeErrors(catalogueOf(entry), `properties.${i}.`)),
  );
  const listed = body.properties.map((p) => p.property_id);
  // A property named twice, the same way or once by external id and once by partner code, would have two
  // catalogues in one full replacement: the later one would silently win.
  const found = await findProperties(deps.db, principal, listed);
  found.forEach((property, i) => {
    const twice = property
      ? found.findIndex((p) => p?.id === property.id) !== i
      : listed.indexOf(listed[i] ?? '') !== i;
    if (twice) errors[`properties.${i}.property_id`] = ['customer.catalogue_sync.messages.duplicate'];
  });
  if (Object.keys(errors).length) throw validationError(errors);

  // Opt-in: a sync that names one property must not empty every other one because a field was left out.
  const clearUnlisted = body.clear_unlisted ?? false;
  const [job] = await deps.db.sql<{ id: number; external_id: string }>`
    insert into catalogue_sync_jobs (customer_id, client_id, status, request, created_at)
    values (${principal.customerId}, ${principal.clientPk}, 'running',
      ${{ clear_unlisted: clearUnlisted, properties: body.properties.length }}::jsonb, ${deps.clock.now()})
    returning id, external_id`;
  if (!job) throw new Error('job insert returned no row');
  try {
    const outcome = await deps.db.tx(async (tx) => {
      const results: PropertyOutcome[] = [];
      const touched = new Set<number>();
      for (const [i, entry] of body.properties.entries()) {
        const property = found[i];
        if (!property) {
          results.push({ property_id: entry.property_id, outcome: 'failed', error: 'errors.not_found' });
          continue;
        }
        touched.add(property.id);
        await storeCatalogue(tx, property, catalogueOf(entry), 'catalogue_sync', deps.clock.now());
        results.push({ property_id: property.external_id, requested_as: entry.property_id, outcome: 'replaced' });
      }
      if (clearUnlisted) {
        const others = await tx.sql<PropertyRow & Catalogue>`
          select p.* from properties p join catalogues c on c.property_id = p.id
          where p.id = any(${[...principal.propertyIds].filter((id) => !touched.has(id))}::bigint[])
            and (jsonb_array_length(c.rooms) + jsonb_array_length(c.rates) + jsonb_array_length(c.meals)) > 0
          order by p.id`;
        for (const property of others) {
          await storeCatalogue(tx, property, EMPTY_CATALOGUE, 'catalogue_sync', deps.clock.now());
          results.push({ property_id: property.external_id, outcome: 'cleared' });
        }
      }
      const idsOf = (kind: PropertyOutcome['outcome']) =>
        results.filter((r) => r.outcome === kind).map((r) => r.property_id);
      await recordEvent(tx, {
        type: 'catalogue_sync.completed',
        customerId: principal.customerId,
        propertyId: null,
        data: {
          job_id: job.external_id,
          replaced: idsOf('replaced'),
          cleared: idsOf('cleared'),
          failed: idsOf('failed').length,
        },
      });
      await tx.sql`update catalogue_sync_jobs set status = 'completed', outcome = ${{ properties: results }}::jsonb,
        completed_at = ${deps.clock.now()} where id = ${job.id}`;
      return results;
    });
    deps.log.info('catalogue sync completed', { job_id: job.external_id, properties: outcome.length });
  } catch (err) {
    deps.log.error('catalogue sync failed', { job_id: job.external_id, error: String(err) });
    await deps.db
      .sql`update catalogue_sync_jobs set status = 'failed', outcome = ${{ properties: [], error: 'errors.internal_error' }}::jsonb,
      completed_at = ${deps.clock.now()} where id = ${job.id}`;
  }
  return catalogueSyncView(await findCatalogueSync(deps.db, principal, job.external_id));
}

/** A job of the caller's customer; anything else (or a malformed id) is 404. */
export async function findCatalogueSync(db: Db, principal: Principal, jobId: string): Promise<JobRow> {
  const [job] = isUuid(jobId)
    ? await db.sql<JobRow>`select * from catalogue_sync_jobs
        where external_id = ${jobId} and customer_id = ${principal.customerId}`
    : [];
  if (!job) throw notFound();
  return job;
}

/** The job as POST /catalogue-sync answers it and GET /catalogue-sync/{job} reads it again. */
export function catalogueSyncView(job: JobRow) {
  const properties = job.outcome?.properties ?? [];
  const count = (kind: PropertyOutcome['outcome']) => properties.filter((p) => p.outcome === kind).length;
  return {
    id: job.external_id,
    status: job.status,
    clear_unlisted: job.request.clear_unlisted,
    created_at: job.created_at.toISOString(),
    completed_at: job.completed_at?.toISOString() ?? null,
    counts: { replaced: count('replaced'), cleared: count('cleared'), failed: count('failed') },
    properties,
    ...(job.outcome?.error ? { error: job.outcome.error } : {}),
  };
}
