/**
 * The compatibility harness command line: `npm run harness -- <command> ...` (see harness/README.md).
 * Exit status: 0 when no exchange differs beyond noise, 1 when some do, 2 on bad usage or unreadable input.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { compareCommand } from './commands/compare-command.ts';
import { recordCommand } from './commands/record-command.ts';
import { replayCommand } from './commands/replay-command.ts';
import { serveCommand } from './commands/serve-command.ts';
import { serviceReportCommand } from './commands/service-report-command.ts';
import { UsageError } from './commands/usage-error.ts';
import { DIFFERENCE_CLASSES } from './compare/field-difference.ts';
import { CorpusError } from './corpus/read-corpus.ts';

const EXIT_USAGE = 2;

function integer(min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number >= ${min}`);
    return n;
  };
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number above 0');
  return n;
}

function shiftDays(value: string): number | 'auto' {
  if (value === 'auto') return value;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError('expected a whole number of days, or auto');
  return n;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

let exitCode = 0;
const program = new Command('harness')
  .description('Record legacy PMS traffic, replay it against the port, compare byte for byte, score the differences.')
  .exitOverride()
  .showHelpAfterError('(run with --help for usage)');

const comparisonFlags = (command: Command) =>
  command
    .option('--secondary <file>', 'a second recording of the same requests: fields differing in it are noise')
    .option('--ignore <file>', 'ignore rules, one "METHOD PATH FIELD" a line')
    .option('--headers <names>', 'response headers compared, comma-separated', 'content-type')
    .option('--json <out.json>', 'write the run summary as JSON ("-" for stdout)')
    .option('--report <out.html>', 'write a self-contained HTML report')
    .option('--history <dir>', 'keep this run in DIR and plot the score over its runs in the report')
    .option('--map <field:recorded=replayed>', 'an id correspondence set by hand (room_id:160=1); repeatable', collect)
    .option(
      '--shift-dates <days|auto>',
      'move every request date N days, and accept replayed dates moved so ("auto": from the recording day to today)',
      shiftDays,
    )
    .option('--no-redact', 'show secrets and guest data in stdout, --json and --report (a local run only)')
    .addOption(
      new Option('--fail-on <class>', 'exit 1 only for differences of this class or a more severe one').choices([
        ...DIFFERENCE_CLASSES,
      ]),
    );

program
  .command('record')
  .description('a recording reverse proxy: forwards to the upstream, appends each exchange to the corpus')
  .requiredOption('--upstream <url>', 'the service to record (the legacy PHP service, or the port)')
  .requiredOption('--out <file>', 'corpus to write: .har, or .jsonl (appended to)')
  .option('--port <n>', 'port to listen on (0: any free one)', integer(0), 8089)
  .option('--host <address>', 'address to listen on', '127.0.0.1')
  .option('--redact <spec>', 'JSON path ($.data[*].client.email) or query parameter to mask; repeatable', collect)
  .action(async (flags) => {
    exitCode = await recordCommand(flags);
  });

program
  .command('serve')
  .description('answers requests from a corpus byte for byte: the n-th identical request gets the n-th answer')
  .argument('<file>', 'corpus (.har or .jsonl)')
  .requiredOption('--port <n>', 'port to listen on (0: any free one)', integer(0))
  .option('--host <address>', 'address to listen on', '127.0.0.1')
  .action(async (file, flags) => {
    exitCode = await serveCommand(file, flags);
  });

comparisonFlags(
  program
    .command('replay')
    .description('sends every recorded request to the target and compares each answer with the recorded one')
    .argument('<file>', 'corpus (.har or .jsonl)')
    .requiredOption('--target <url>', 'base URL of the system under test')
    .option('--key-map <file|recorded=replayed>', 'api_key rewriting: a file or a pair; repeatable', collect)
    .option('--concurrency <n>', 'requests in flight at once (1 keeps the recorded order)', integer(1), 1)
    .addOption(new Option('--rate <r>', 'at most R requests started per second').argParser(positive))
    .option('--timeout <ms>', 'per request', integer(1), 30_000)
    .option('--allow-writes', 'replay writes for real (default: every request is a dry run the target rolls back)'),
).action(async (file, flags) => {
  exitCode = await replayCommand(file, flags);
});

program
  .command('report')
  .description("the HTML report of a credential's daily shadow-difference scores, read from the service")
  .requiredOption('--from-service <url>', 'base URL of the service (its operator API)')
  .requiredOption('--key <id>', 'the legacy api key id', integer(1))
  .requiredOption('--out <file.html>', 'where to write the report')
  .option('--from <date>', 'first UTC day (YYYY-MM-DD; default: 30 days before --to)')
  .option('--to <date>', 'last UTC day (default: today)')
  .option('--token <token>', 'operator bearer token (default: QC_OPERATOR_TOKEN)')
  .option('--no-redact', 'show secrets and guest data as the service kept them (a local run only)')
  .action(async (flags) => {
    exitCode = await serviceReportCommand(flags);
  });

comparisonFlags(
  program
    .command('compare')
    .description('the same comparison offline, between two corpora of the same requests')
    .argument('<primary>', 'the recorded answers (.har or .jsonl)')
    .argument('<candidate>', 'the answers to compare with them'),
).action(async (primary, candidate, flags) => {
  exitCode = await compareCommand(primary, candidate, flags);
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version are not errors; everything else commander refuses is bad usage (it printed why).
    process.exit(err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT_USAGE);
  }
  if (err instanceof UsageError || err instanceof CorpusError) {
    console.error(`harness: ${err.message}`);
    process.exit(EXIT_USAGE);
  }
  // A file that cannot be written or read, a port in use: the system's own words and what they name, no stack.
  const system = err as { code?: unknown; path?: unknown; message?: unknown };
  if (typeof system?.code === 'string' && typeof system.message === 'string') {
    const named = typeof system.path === 'string' && !system.message.includes(system.path) ? ` (${system.path})` : '';
    console.error(`harness: ${system.message}${named}`);
    process.exit(EXIT_USAGE);
  }
  // Status 1 means "the answers differ"; a harness that broke must not be read as that.
  console.error('harness: unexpected failure', err);
  process.exit(EXIT_USAGE);
}
process.exit(exitCode);
