/** `npm run changelog`: writes CHANGELOG.md from server/changelog/entries.ts. */
import { changelog } from '../server/changelog/entries.ts';
import { renderChangelog } from '../server/changelog/render-markdown.ts';

await Bun.write(new URL('../CHANGELOG.md', import.meta.url), renderChangelog(changelog));
console.log('CHANGELOG.md written');
