import type { CaseRecord } from '../contracts/run-log.js';

/** Progress on stderr: a redrawn bar on a TTY, plain lines (every ~10% or 5 s) otherwise, e.g. in CI logs. */
export class Progress {
  private readonly tty: boolean;
  private lastLine = 0;
  private lastPct = -1;
  private failures = 0;
  private errors = 0;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
  ) {
    this.tty = Boolean(stream.isTTY) && !process.env.CI;
  }

  update(record: CaseRecord, done: number): void {
    if (this.quiet) return;
    if (record.error) this.errors++;
    else if (record.grades.some((g) => !g.pass)) this.failures++;
    const pct = this.total ? Math.floor((done / this.total) * 100) : 100;
    const status = `${done}/${this.total} cases · ${this.failures} with a failing grade · ${this.errors} errors`;
    if (this.tty) {
      const width = 28;
      const filled = Math.round((pct / 100) * width);
      this.stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${status}`);
      if (done === this.total) this.stream.write('\n');
      return;
    }
    const now = Date.now();
    if (done === this.total || Math.floor(pct / 10) > Math.floor(this.lastPct / 10) || now - this.lastLine > 5000) {
      this.stream.write(`progress: ${pct}% ${status}\n`);
      this.lastLine = now;
      this.lastPct = pct;
    }
  }

  end(): void {
    if (this.tty && !this.quiet) this.stream.write('\n');
  }
}
