import { ok, okSchema } from '../core/http/envelope.ts';
import { inProperty } from '../core/routes/in-property.ts';
import { defineRoute } from '../core/routes/route.ts';
import { PropertyParams } from '../properties/model.ts';
import { readGuide } from './guest-guide.ts';
import { GuideSchema } from './model.ts';

export const showGuestGuide = defineRoute({
  name: 'qc.guest_guide.show',
  method: 'GET',
  path: '/properties/:property/guest_guide',
  scope: 'properties.manage',
  bucket: 'reads',
  resource: 'guest_guide',
  summary: "The property's guest guide: its content items in order",
  tags: ['content pages'],
  params: PropertyParams,
  response: okSchema(GuideSchema),
  handle: inProperty(async ({ deps }, property) => {
    return ok(await readGuide(deps.db, property.id));
  }),
});
