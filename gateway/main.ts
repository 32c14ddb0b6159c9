#!/usr/bin/env node
/**
 * The command-line entry point: parses the command line, then imports only the module of the
 * command it runs, so `scigate stdio` answers `initialize` before storage, the sources and the HTTP
 * edge are loaded (gateway/commands/). The one file that reads process.env. The package runs it
 * bundled (dist/bundle/scigate.js, scripts/bundle.mjs).
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseCommandLine, UsageError } from './config/index.js';

type Env = Record<string, string | undefined>;

/** Runs a command line; resolves with the process exit code. */
export async function main(argv: string[], env: Env): Promise<number> {
  try {
    const parsed = parseCommandLine(argv, env);
    switch (parsed.command) {
      case 'help':
        process.stdout.write(`${parsed.text}\n`);
        return 0;
      case 'version':
        process.stdout.write(`scigate ${(await import('./commands/version.js')).VERSION}\n`);
        return 0;
      case 'serve':
        return await (await import('./commands/serveCommand.js')).runServe(parsed.flags, env);
      case 'stdio':
        return await (await import('./commands/stdioCommand.js')).runStdio(parsed.flags, env);
      case 'source':
        return await (await import('./commands/sourceCommand.js')).runSource(parsed.sourceId!, parsed.flags, env);
      case 'migrate':
        return await (await import('./commands/migrateCommand.js')).runMigrate(parsed.flags);
      case 'token': {
        const { token, note } = await (await import('./commands/tokenCommand.js')).readToken(parsed.flags);
        process.stdout.write(`${token}\n`);
        process.stderr.write(`${note}\n`);
        return 0;
      }
    }
  } catch (error) {
    process.stderr.write(`scigate: ${(error as Error).message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) void main(process.argv.slice(2), process.env).then((code) => process.exit(code));
