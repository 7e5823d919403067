// Alarms raised by real conditions and cleared when they end (emqx_alarm): the license
// connection quota (emqx_license_checker: above the high watermark of `max_connections` it
// activates `license_quota`, below the low watermark it deactivates) and the memory of node 1
// (this process's resident set against a threshold). Checked on every sample and, for the
// quota, on every connect and disconnect.
import type { Alarms } from './alarms.ts';
import { humanBytes } from './cluster.ts';
import type { License } from '../dashboard/license.ts';

export interface MemoryWatch {
  /** Bytes of resident memory above which node 1 raises its alarm. */
  highWatermark: number;
  /** Reads the current usage in bytes. */
  usage: () => number;
}

export class Conditions {
  constructor(
    private readonly alarms: Alarms,
    private readonly license: License,
    private readonly node: string,
    /** Live connections of the whole cluster. */
    private readonly liveConnections: () => number,
    private readonly memory: MemoryWatch,
  ) {}

  /** Checks every condition. */
  check(): void {
    this.checkLicense();
    this.checkMemory();
  }

  checkLicense(): void {
    const max = this.license.quota;
    const count = this.liveConnections();
    const { low, high } = this.license.watermarks();
    if (count > max * high) {
      const percent = (high * 100).toFixed(0);
      this.alarms.activate(this.node, 'license_quota', `License: live connection number exceeds ${percent}%`, { high_watermark: percent });
    } else if (count < max * low) {
      this.alarms.deactivate(this.node, 'license_quota');
    }
  }

  checkMemory(): void {
    const usage = this.memory.usage();
    const limit = this.memory.highWatermark;
    if (usage > limit) {
      this.alarms.activate(this.node, 'high_process_memory_usage', `Process memory usage is higher than ${humanBytes(limit)}`, {
        high_watermark: humanBytes(limit),
        usage: humanBytes(usage),
      });
    } else {
      this.alarms.deactivate(this.node, 'high_process_memory_usage');
    }
  }
}
