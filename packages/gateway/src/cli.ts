// signet-gateway: a tiny dispatcher. Each subcommand is a function in cli/<name>.ts taking its
// arguments and returning the exit code; this file is the one place that touches process.
// V8's settings come first, before any other module allocates (v8-flags.ts).
import './v8-flags.ts';
import { configParse } from './cli/config-parse.ts';
import { start } from './cli/start.ts';

/** A subcommand: arguments after its name → exit code. */
export type Command = (args: readonly string[], io: CommandIo, env: Readonly<Record<string, string | undefined>>) => Promise<number>;

/** Where a subcommand writes (process streams here, captured in tests). */
export type CommandIo = { readonly out: (line: string) => void; readonly err: (line: string) => void };

const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['config parse', configParse],
  ['start', start],
]);

const USAGE = [
  'usage: signet-gateway <command>',
  '  config parse FILE [--json] [--plugins LIST]   validate a declarative kong.yml and summarise it',
  '  start --config FILE ...      run the gateway',
].join('\n');

/** Runs the command named by the leading words of `argv`. */
export async function main(argv: readonly string[], io: CommandIo, env: Readonly<Record<string, string | undefined>> = {}): Promise<number> {
  for (let words = Math.min(2, argv.length); words >= 1; words--) {
    const command = COMMANDS.get(argv.slice(0, words).join(' '));
    if (command !== undefined) return command(argv.slice(words), io, env);
  }
  io.err(USAGE);
  return 2;
}

process.exitCode = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}, process.env);
