/**
 * One stdio server's process group, as written down while it runs. The start times (clock ticks
 * since boot, from the kernel) tell a recorded pid apart from a later process that reuses it.
 */
export interface ProcessGroupEntry {
  /** The group id: the pid of the server, its leader. */
  pgid: number;
  /** Start time of the leader when it was recorded. */
  startTicks: string;
  /** The gateway process that started it. */
  ownerPid: number;
  /** Start time of that gateway process. */
  ownerStartTicks: string;
}

/**
 * The live stdio process groups, kept in the data directory so that a gateway started after one
 * that died (kill -9, power loss) can kill what that one left running. Writes are durable when the
 * promise resolves.
 */
export interface ProcessGroupRecord {
  add(entry: ProcessGroupEntry): Promise<void>;
  /** Forgets a group; forgetting an unknown one is not an error. */
  remove(pgid: number): Promise<void>;
  list(): Promise<ProcessGroupEntry[]>;
}
