import { describe, expect, it } from 'bun:test';
import { GIF_1X1, MemoryStorage, registerLegacyFile, uploadImages } from '../gallery/test-fixtures.ts';
import type { Reply } from '../testing/harness.ts';
import { perFile, testAppPerFile } from '../testing/harness.ts';

const storage = new MemoryStorage();
const t = testAppPerFile({ storage });
const demo = perFile(() => t.demo());
const other = perFile(() => t.demo());
const NO_SUCH_IMAGE = '00000000-0000-4000-8000-000000000000';

const call = (method: string, path: string, body?: unknown) =>
  t.request(method, `/v1/qc${path}`, { token: demo.personal_token, body });

/**
 * The fields of an operation's refusal with this status that the API document describes beside status, message
 * and detail (the schema a typed client is generated from).
 */
async function documentedFields(method: string, path: string, status: number): Promise<string[]> {
  const doc = (await t.request('GET', '/v1/qc/openapi.json')).body;
  const operation = doc.paths[`/v1/qc${path}`][method.toLowerCase()];
  const schema = operation.responses[String(status)].content['application/json'].schema;
  return Object.keys(schema.allOf[1].properties).filter((field) => field !== 'message');
}

/** Asserts the refusal's key and that each field it answers beside the envelope is in the document. */
async function expectDescribed(res: Reply, key: string, method: string, path: string) {
  expect(res.body.message).toBe(key);
  const extra = Object.keys(res.body).filter((field) => !['status', 'message', 'detail'].includes(field));
  expect(extra.length).toBeGreaterThan(0);
  expect(await documentedFields(method, path, res.status)).toEqual(expect.arrayContaining(extra));
}

describe('configuration refusals with fields beside the key', () => {
  it('are documented by DELETE payment_policies and cancellation_policies (409 rate_plan_ids)', async () => {
    const property = demo.properties[0]?.id as string;
    for (const [table, key] of [
      ['payment_policies', 'errors.qc.payment_policy_in_use'],
      ['cancellation_policies', 'errors.qc.cancellation_policy_in_use'],
    ] as const) {
      const [used] = (await call('GET', `/properties/${property}/${table}`)).body.data[table];
      const res = await call('DELETE', `/properties/${property}/${table}/${used.id}`);
      expect(res.status).toBe(409);
      await expectDescribed(res, key, 'DELETE', `/properties/{property}/${table}/{policy}`);
    }
  });

  it('are documented by DELETE /gallery (409 usages), POST /gallery (422 file, index) and register (409 image_id)', async () => {
    const used = (await call('GET', '/gallery')).body.data.images.find((i: any) => i.usages.length > 0);
    await expectDescribed(
      await call('DELETE', `/gallery/${used.id}`),
      'errors.qc.gallery_image_in_use',
      'DELETE',
      '/gallery/{image}',
    );
    const upload = await uploadImages(t, demo.personal_token, [
      { name: 'invoice.png', bytes: new TextEncoder().encode('%PDF-1.7'), type: 'image/png' },
    ]);
    await expectDescribed(upload, 'errors.qc.gallery_not_an_image', 'POST', '/gallery');
    await t.deps.storage.put(`legacy/${demo.customer_id}/file-1`, GIF_1X1, 'image/gif');
    expect((await registerLegacyFile(t, demo.personal_token, 'file-1')).status).toBe(201);
    await expectDescribed(
      await registerLegacyFile(t, demo.personal_token, 'file-1'),
      'errors.qc.gallery_legacy_file_registered',
      'POST',
      '/gallery/register',
    );
  });

  it('are documented by the image lists of properties, room types and content pages (422 image_id)', async () => {
    const property = demo.properties[0];
    const room = property?.room_types[0]?.id;
    const images = { image_ids: [NO_SUCH_IMAGE] };
    const [page] = (await call('GET', `/properties/${property?.id}/content_pages`)).body.data.content_pages;
    for (const [method, path, concrete, body] of [
      ['PUT', '/properties/{property}/images', `/properties/${property?.id}/images`, images],
      [
        'PUT',
        '/properties/{property}/room_types/{roomType}/images',
        `/properties/${property?.id}/room_types/${room}/images`,
        images,
      ],
      [
        'POST',
        '/properties/{property}/content_pages',
        `/properties/${property?.id}/content_pages`,
        { slug: 'spa', title: 'Spa', ...images },
      ],
      [
        'PATCH',
        '/properties/{property}/content_pages/{page}',
        `/properties/${property?.id}/content_pages/${page.id}`,
        images,
      ],
    ] as const) {
      await expectDescribed(await call(method, concrete, body), 'errors.qc.gallery_image_not_found', method, path);
    }
  });

  it('are documented by PUT guest_guide (422 item) and POST guest_feedback (409 feedback_id)', async () => {
    const property = demo.properties[0]?.id as string;
    await expectDescribed(
      await call('PUT', `/properties/${property}/guest_guide`, {
        items: [{ kind: 'page', content_page_id: NO_SUCH_IMAGE }],
      }),
      'errors.qc.content_page_not_found',
      'PUT',
      '/properties/{property}/guest_guide',
    );
    const [feedback] = (await call('GET', `/properties/${property}/guest_feedback`)).body.data.guest_feedback;
    await expectDescribed(
      await call('POST', `/properties/${property}/guest_feedback`, {
        booking_id: feedback.booking_id,
        overall_score: 7,
      }),
      'errors.qc.guest_feedback_exists',
      'POST',
      '/properties/{property}/guest_feedback',
    );
  });

  it('are documented by POST and PATCH auto_email_templates (422 property_id)', async () => {
    const foreign = [other.properties[0]?.id];
    const [template] = (await call('GET', '/auto_email_templates')).body.data.auto_email_templates;
    const { id: _id, created_at: _c, updated_at: _u, ...fields } = template;
    await expectDescribed(
      await call('POST', '/auto_email_templates', { ...fields, property_ids: foreign }),
      'errors.qc.property_id_not_granted_to_client',
      'POST',
      '/auto_email_templates',
    );
    await expectDescribed(
      await call('PATCH', `/auto_email_templates/${template.id}`, { property_ids: foreign }),
      'errors.qc.property_id_not_granted_to_client',
      'PATCH',
      '/auto_email_templates/{template}',
    );
  });
});
