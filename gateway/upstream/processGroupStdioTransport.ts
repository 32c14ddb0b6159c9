import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedLineReader, GatewayError, isPlainResultResponse, type Logger, type ProcessGroupRecord, type SecretScrubber } from '../core/index.js';
import { killGroup, noteChildExited, noteChildStarted } from './childGroups.js';
import { malformedResponse } from './malformedResponses.js';
import { WATCHDOG_SCRIPT, resolveCommand } from './parentWatchdog.js';
import { stderrLog, type StderrLog } from './stderrLog.js';

export interface StdioTargetOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** How long a child gets after SIGTERM before SIGKILL. */
  killGraceMs?: number;
  /** Longest line (one JSON-RPC message) the server may write; a longer one fails the connection. */
  maxLineBytes: number;
  /** How error messages name the server (its id, or a custom server's label). */
  id: string;
  log: Logger;
  /** Scrubs stderr before it is logged (see stderrLog). */
  secrets?: SecretScrubber;
  /** Where the child's process group is written down while it runs (the gateway's data directory). */
  processGroups?: ProcessGroupRecord;
  /** Told when the server broke its bounds (a line too long, input left unread): the connection is being stopped. */
  onFailure?: (error: GatewayError) => void;
}

/**
 * Most bytes written to a server's stdin that it has not read yet. A server that stops reading
 * leaves every later request (and the cancellation of each timed-out one) in the gateway's memory;
 * past this bound it is restarted instead.
 */
export const MAX_UNREAD_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * Runs an MCP server as a child in its own process group, so stopping it also stops anything it
 * spawned (npx wrappers, shells). The SDK's own stdio transport cannot place children in a group,
 * bound what a child writes or leaves unread, or make the child end when the gateway dies: this
 * one does all of that.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly reader: BoundedLineReader;
  private stderr: StderrLog | undefined;
  /** Set when the gateway ends the child (close, a broken bound): its exit is expected, not news. */
  private stopping = false;

  constructor(private readonly options: StdioTargetOptions) {
    this.reader = new BoundedLineReader(options.maxLineBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // The SDK's safe default environment (PATH, HOME, …), never the gateway's secrets.
      const env = { ...getDefaultEnvironment(), ...this.options.env };
      const command = resolveCommand(this.options.command, env.PATH, this.options.cwd);
      if (command instanceof Error) return reject(command);
      // Else spawn blames /bin/sh (ENOENT), which names neither the cause nor the setting.
      if (this.options.cwd !== undefined && !isDirectory(this.options.cwd)) {
        return reject(new GatewayError('upstream_unavailable', `${this.options.id}: its working directory ${this.options.cwd} is not a directory here; change cwd in its settings.`));
      }
      // fd 3 is a pipe only the gateway holds open: the watchdog in the group sees it close when the
      // gateway dies (even by SIGKILL) and kills the group, so no server outlives its gateway.
      const child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'scigate-stdio', command, ...this.options.args], {
        cwd: this.options.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        noteChildStarted(child, this.options.processGroups, this.options.log);
        resolve();
      });
      child.once('exit', (code, signal) => this.exited(child, code, signal));
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      const stderr = stderrLog(this.options.log, child.pid, this.options.secrets);
      this.stderr = stderr;
      child.stderr!.on('data', (chunk: Buffer) => stderr.write(chunk));
      child.stderr!.once('end', () => stderr.end());
      child.stdin!.on('error', (error) => this.onerror?.(error));
      // The watchdog's end never carries data; an error on ours (child gone) is not the gateway's problem.
      (child.stdio[3] as NodeJS.ReadableStream | null)?.on('error', () => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('The upstream process is not running'));
      if (stdin.writableLength > MAX_UNREAD_INPUT_BYTES) {
        const error = new GatewayError(
          'upstream_unavailable',
          `${this.options.id} stopped reading its input (${stdin.writableLength} bytes unread); the server was stopped and restarts on a later call.`,
          { retryable: true },
        );
        this.stop(error, 'upstream stdio server stopped reading its input; stopping it');
        return reject(error);
      }
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), this.options.killGraceMs ?? 2000);
    await exited;
    clearTimeout(timer);
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    // Whatever the server left running in its group (npx wrappers, shells, the watchdog) goes with it.
    killGroup(child, 'SIGKILL');
    noteChildExited(child, this.options.processGroups, this.options.log);
    this.reader.clear();
    (child.stdio[3] as NodeJS.ReadableStream & { destroy?: () => void } | null)?.destroy?.();
    this.options.log.info({ pid: child.pid, code, signal }, 'upstream stdio server exited');
    // Told before onclose, so the calls (or the connect) that fail with the connection say why.
    if (!this.stopping) this.options.onFailure?.(this.exitError(code, signal));
    this.onclose?.();
  }

  /** Nothing the server writes may throw out of here: bad lines are reported, an oversized one ends the connection. */
  private read(chunk: Buffer): void {
    this.reader.push(chunk, {
      line: (text) => {
        if (text.trim() === '') return;
        let message: JSONRPCMessage | undefined;
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
          // A plain result (nearly every line) skips the SDK's schema; anything else is checked by it.
          message = isPlainResultResponse(parsed) ? (parsed as JSONRPCMessage) : JSONRPCMessageSchema.parse(parsed);
        } catch (error) {
          message = malformedResponse(parsed, this.options.id);
          if (!message) {
            this.onerror?.(new GatewayError('upstream_error', `${this.options.id} wrote a line that is not a JSON-RPC message: ${(error as Error).message.slice(0, 200)}`));
            return;
          }
        }
        try {
          this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      overflow: (bytes) => this.fail(bytes),
    });
  }

  private fail(bytes: number): void {
    const error = new GatewayError(
      'response_too_large',
      `${this.options.id} wrote a message of more than ${this.options.maxLineBytes} bytes (${bytes} so far); the server was stopped and restarts on a later call.`,
      { details: { limitBytes: this.options.maxLineBytes } },
    );
    this.stop(error, 'upstream stdio message too large; stopping the server');
  }

  /** Why a server that exited by itself is gone: its exit status and the last of its stderr. */
  private exitError(code: number | null, signal: NodeJS.Signals | null): GatewayError {
    const status = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const said = this.stderr?.summary().replace(/\s+/g, ' ').trim();
    return new GatewayError(
      'upstream_unavailable',
      `${this.options.id} ${status}${said ? `; its stderr: "${said}"` : ' and wrote nothing to stderr'}. ` +
        'It is started again on the next call; if it keeps exiting, check its command, arguments, working directory and environment.',
      { retryable: true },
    );
  }

  /** Ends the connection because the server broke a bound: the calls waiting on it fail at once, the next call restarts it. */
  private stop(error: GatewayError, why: string): void {
    this.stopping = true;
    this.options.log.warn({ pid: this.child?.pid, err: error.message }, why);
    this.options.onFailure?.(error);
    this.onerror?.(error);
    void this.close();
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
