import { replaceGuide } from '../content-pages/guest-guide.ts';
import { createPage } from '../content-pages/pages.ts';
import { authenticate } from '../core/auth/authenticate.ts';
import type { DemoContext } from './demo.ts';

/**
 * One content page (house rules, with the demo's gallery image when there is one) and a guest guide that
 * references it beside a text item. Output: `demo.content_page = {id, slug}`.
 */
export async function contentPagesDemoStep(ctx: DemoContext): Promise<void> {
  const principal = await authenticate(ctx.deps, `Bearer ${ctx.demo.personal_token}`);
  const image = (ctx.demo.gallery as { image_id: string } | undefined)?.image_id;
  const page = await ctx.deps.db.tx(async (tx) => {
    const created = await createPage(tx, principal, ctx.live, {
      slug: 'house-rules',
      title: 'House rules',
      title_tr: { 'de-DE': 'Hausordnung' },
      body_html: { 'en-GB': '<p>Check-in from 15:00, check-out until 11:00. Quiet hours 22:00 to 07:00.</p>' },
      image_ids: image ? [image] : [],
    });
    await replaceGuide(tx, ctx.live, [
      { kind: 'text', title: 'Welcome', text: { 'en-GB': 'Breakfast is served from 07:00 on the terrace.' } },
      { kind: 'page', title: 'House rules', content_page_id: created.external_id },
    ]);
    return created;
  });
  ctx.demo.content_page = { id: page.external_id, slug: page.slug };
}
