import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger, SecretScrubber } from '../core/index.js';
import { stderrLog } from './stderrLog.js';

export interface StdioTargetOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** How long a child gets after SIGTERM before SIGKILL. */
  killGraceMs?: number;
  log: Logger;
  /** Scrubs stderr before it is logged (see stderrLog). */
  secrets?: SecretScrubber;
}

/** Every stdio child the gateway runs, so a stopping gateway can kill all their process groups. */
export const liveChildren = new Set<ChildProcess>();

/**
 * Runs an MCP server as a child in its own process group, so stopping it also stops anything it
 * spawned (npx wrappers, shells). The SDK's own stdio transport cannot place children in a group.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly options: StdioTargetOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        cwd: this.options.cwd,
        // The SDK's safe default environment (PATH, HOME, …), never the gateway's secrets.
        env: { ...getDefaultEnvironment(), ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        liveChildren.add(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        liveChildren.delete(child);
        // Whatever the server left running in its group (npx wrappers, shells) goes with it.
        killGroup(child, 'SIGKILL');
        this.options.log.info({ pid: child.pid, code, signal }, 'upstream stdio server exited');
        this.onclose?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => this.read(chunk));
      const stderr = stderrLog(this.options.log, child.pid, this.options.secrets);
      child.stderr!.on('data', (chunk: Buffer) => stderr.write(chunk));
      child.stderr!.once('end', () => stderr.end());
      child.stdin!.on('error', (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('The upstream process is not running'));
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), this.options.killGraceMs ?? 2000);
    await exited;
    clearTimeout(timer);
  }

  private read(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }
}

/** Signals the child's whole process group; falls back to the child alone if the group is gone. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}
