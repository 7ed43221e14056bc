import type { Deps } from '../core/deps.ts';
import { validationError } from '../core/http/api-error.ts';
import { accepted, ok } from '../core/http/envelope.ts';
import type { QcApp } from '../core/http/qc-app.ts';
import { resolveProperty } from '../core/resolve.ts';
import { routes } from '../core/routes/route-table.ts';
import { PropertyParams } from '../properties/model.ts';
import { CatalogueBody, CatalogueSyncBody, JobParams } from './model.ts';
import { catalogueOf, catalogueView, duplicateCodeErrors, replaceCatalogue } from './service.ts';
import { runCatalogueSync, showCatalogueSync } from './sync.ts';

export function registerCatalogue(app: QcApp, deps: Deps) {
  app.put(
    routes.catalogueReplace.path,
    async ({ principal, params, body }) => {
      const property = await resolveProperty(deps.db, principal, params.property);
      const catalogue = catalogueOf(body);
      const errors = duplicateCodeErrors(catalogue);
      if (Object.keys(errors).length) throw validationError(errors);
      const row = await deps.db.tx((tx) => replaceCatalogue(tx, property, catalogue, 'put', deps.clock.now()));
      return ok(catalogueView(property, row));
    },
    {
      qc: routes.catalogueReplace,
      params: PropertyParams,
      body: CatalogueBody,
      detail: {
        summary: routes.catalogueReplace.summary,
        tags: ['catalogue'],
        description:
          'Replaces the whole catalogue `{rooms, rates, meals}` (entries `{code, name}`); an omitted array becomes empty. A code repeated within one array is 422 (`rooms.<i>.code`). Answers the stored catalogue.',
      },
    },
  );
  app.post(
    routes.catalogueSyncCreate.path,
    async ({ principal, body, set }) => {
      const errors = Object.assign(
        {},
        ...body.properties.map((entry, i) => duplicateCodeErrors(catalogueOf(entry), `properties.${i}.`)),
      );
      const listed = body.properties.map((p) => p.property_id);
      listed.forEach((id, i) => {
        if (listed.indexOf(id) !== i)
          errors[`properties.${i}.property_id`] = ['customer.catalogue_sync.messages.duplicate'];
      });
      if (Object.keys(errors).length) throw validationError(errors);
      set.status = 202;
      return accepted(await runCatalogueSync(deps, principal, body));
    },
    {
      qc: routes.catalogueSyncCreate,
      body: CatalogueSyncBody,
      detail: {
        summary: routes.catalogueSyncCreate.summary,
        tags: ['catalogue'],
        description: [
          'Body `{properties: [{property_id, rooms?, rates?, meals?}], clear_unlisted?}`. A full replacement over',
          'the properties the token may act on: each listed property (external id or partner code) gets exactly',
          'the given catalogue; with `clear_unlisted` (default true) every other such property that still has',
          'codes is emptied. Answers 202 with the job `{id, status, counts: {replaced, cleared, failed},',
          'properties: [{property_id, outcome: replaced|cleared|failed, error?}]}`; read it again with GET',
          '/catalogue-sync/{id}. Status is `queued`, `running`, `completed` or `failed`. Today the job completes',
          "within the request, in one transaction; a listed property outside the token's reach fails alone",
          '(`errors.not_found`).',
        ].join(' '),
      },
    },
  );
  app.get(
    routes.catalogueSyncShow.path,
    async ({ principal, params }) => ok(await showCatalogueSync(deps, principal, params.job)),
    {
      qc: routes.catalogueSyncShow,
      params: JobParams,
      detail: {
        summary: routes.catalogueSyncShow.summary,
        tags: ['catalogue'],
        description: 'The job as POST /catalogue-sync answered it. Jobs of other customers are 404.',
      },
    },
  );
}
