import type { ChangelogEntry } from './entries.ts';

const TAG = { breaking: '**Breaking**', additive: 'Additive', fix: 'Fix' } as const;

/** CHANGELOG.md, rendered from the entries (scripts/write-changelog.ts writes it). */
export function renderChangelog(entries: readonly ChangelogEntry[]): string {
  const lines = [
    '# Changelog',
    '',
    'Changes to the partner API (`/v1/qc`) and the legacy PMS v1 facade, newest first. Breaking changes say how to',
    'move on. Served as JSON at `GET /v1/qc/changelog`. This file is generated from',
    '`server/changelog/entries.ts` by `npm run changelog`.',
  ];
  for (const entry of entries) {
    lines.push('', `## ${entry.date}: ${entry.title}`, '');
    for (const change of entry.changes) {
      lines.push(`- ${TAG[change.kind]}: ${change.summary}`);
      if (change.migration) lines.push(`  Migration: ${change.migration}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
