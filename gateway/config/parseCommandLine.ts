import { parseArgs } from 'node:util';
import { COMMAND_FLAGS, FLAGS, type FlagKey, type FlagSpec } from './flags.js';

export type CommandName = keyof typeof COMMAND_FLAGS;

/** Parsed flag values (strings, numbers, booleans, lists) keyed by flag key. */
export type FlagValues = Partial<Record<FlagKey, string | number | boolean | string[]>>;

export type ParsedCommand =
  | { command: 'help'; text: string }
  | { command: 'version' }
  | { command: CommandName; flags: FlagValues; sourceId?: string };

/** A command line that cannot run; the message names the flag to change. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses argv (without node and script) and the environment into a command; pure. */
export function parseCommandLine(argv: string[], env: Record<string, string | undefined>): ParsedCommand {
  const [first, ...rest] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') return { command: 'help', text: mainHelp() };
  if (first === '--version' || first === '-v' || first === 'version') return { command: 'version' };
  if (!(first in COMMAND_FLAGS)) throw new UsageError(`Unknown command "${first}". Run "scigate --help" to see serve, stdio, source, token, migrate.`);
  const command = first as CommandName;
  const keys = COMMAND_FLAGS[command];
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', text: commandHelp(command) };
  const options = Object.fromEntries(
    keys.map((k) => [FLAGS[k].name, { type: FLAGS[k].kind === 'boolean' ? 'boolean' : 'string' } as const]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: command === 'source', strict: true });
  } catch (error) {
    throw new UsageError(`${parseFailure((error as Error).message, rest)} for "scigate ${command}"; run "scigate ${command} --help" to see its flags.`);
  }
  const flags: FlagValues = {};
  for (const key of keys) {
    const spec: FlagSpec = FLAGS[key];
    const given = parsed.values[spec.name] as string | boolean | undefined;
    const raw = given ?? env[spec.env] ?? spec.default;
    if (raw !== undefined) flags[key] = readFlag(spec, raw, given !== undefined);
  }
  if (command !== 'source') return { command, flags };
  const sourceId = parsed.positionals[0];
  if (!sourceId || parsed.positionals.length > 1) throw new UsageError('Usage: scigate source <id>, e.g. "scigate source arxiv".');
  return { command, flags, sourceId };
}

/** node:util's parseArgs message, said in this CLI's words (its own lines suggest `--port=-XYZ`). */
function parseFailure(message: string, args: string[]): string {
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `Unknown flag ${unknown[1]}`;
  // `--port -1`: parseArgs reads a value that starts with "-" after a space as another flag.
  const dashed = /Option '([^']+)' argument is ambiguous/.exec(message);
  if (dashed) return `${dashed[1]} needs a value; "${args[args.indexOf(dashed[1]!) + 1]}" is read as a flag (write ${dashed[1]}=<value> to pass one that starts with "-")`;
  const missing = /Option '(\S+) <value>' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  return message.split('\n')[0]!.replace(/\.$/, '');
}

const HOST_NAME = /^[a-z0-9_.-]+$/i;
const IPV6_ADDRESS = /^(?=.*:.*:)[0-9a-f:.]+$/i;

function readFlag(spec: FlagSpec, raw: string | boolean, fromFlag: boolean): string | number | boolean | string[] {
  const where = fromFlag ? `--${spec.name}` : `${spec.env} (or --${spec.name})`;
  if (typeof raw === 'boolean') return raw;
  switch (spec.kind) {
    case 'boolean':
      if (/^(1|true|yes)$/i.test(raw)) return true;
      if (/^(0|false|no|)$/i.test(raw)) return false;
      throw new UsageError(`${where} must be true or false, not "${raw}".`);
    case 'port': {
      const port = Number(raw);
      if (!/^\d+$/.test(raw) || port > 65535) throw new UsageError(`${where} must be a port number 0–65535, not "${raw}".`);
      return port;
    }
    case 'seconds': {
      const seconds = Number(raw);
      if (!/^\d+$/.test(raw) || seconds < 1 || seconds > 86_400) throw new UsageError(`${where} must be whole seconds 1–86400, not "${raw}".`);
      return seconds;
    }
    case 'count': {
      const count = Number(raw);
      if (!/^\d+$/.test(raw) || count < 1 || count > 1_000_000) throw new UsageError(`${where} must be a whole number 1–1000000, not "${raw}".`);
      return count;
    }
    case 'choice':
      if (!spec.choices!.includes(raw)) throw new UsageError(`${where} must be one of ${spec.choices!.join(', ')}, not "${raw}".`);
      return raw;
    case 'json':
      try {
        JSON.parse(raw);
      } catch {
        throw new UsageError(`${where} must be JSON${spec.example ? `, e.g. '${spec.example}'` : ''}.`);
      }
      return raw;
    case 'hosts': {
      // The Host guard compares bare names (no port, IPv6 unbracketed): anything else never matches.
      const hosts = raw.split(',').map((s) => s.trim()).filter(Boolean);
      const bad = hosts.find((h) => !HOST_NAME.test(h) && !IPV6_ADDRESS.test(h));
      if (bad !== undefined) {
        throw new UsageError(`${where} takes host names or addresses without scheme, port or brackets, e.g. scigate.example.com,10.0.0.5,fe80::1; "${bad}" is not one.`);
      }
      return hosts;
    }
    default:
      if (raw.trim() === '') throw new UsageError(`${where} must not be empty.`);
      return raw;
  }
}

function mainHelp(): string {
  return `scigate — a governed MCP gateway for scientific sources

Usage:
  scigate serve         HTTP gateway: MCP at /mcp, admin API at /api
  scigate stdio         one MCP session over stdin/stdout (for clients that spawn servers)
  scigate source <id>   one built-in source as a plain stdio MCP server
  scigate token         print the admin token (--rotate makes a new one)
  scigate migrate       move a data dir's sessions, audit and blobs into PostgreSQL (--to postgres://…)

Run "scigate <command> --help" for its flags, "scigate --version" for the version. Every flag is
also an environment variable.`;
}

function commandHelp(command: CommandName): string {
  const lines = COMMAND_FLAGS[command].map((k) => {
    const f: FlagSpec = FLAGS[k];
    const dflt = f.default ? ` (default: ${f.default})` : '';
    return `  --${f.name.padEnd(16)} ${f.env.padEnd(24)} ${f.help}${dflt}`;
  });
  const usage = command === 'source' ? 'scigate source <id>' : `scigate ${command}`;
  const extra = command === 'source' ? '\n\nThe provider URL can be overridden with SCIGATE_<ID>_BASE_URL, e.g. SCIGATE_ARXIV_BASE_URL.' : '';
  return `Usage: ${usage} [flags]\n\n${lines.join('\n')}${extra}`;
}
