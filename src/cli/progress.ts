import type { CaseRecord } from '../run-log/schema.js';
import { rawWrite } from './terminal-guard.js';

/** How often a TTY bar is redrawn at most: offline grading finishes thousands of cases a second. */
const REDRAW_MS = 100;

/**
 * Progress on stderr: a redrawn bar on a TTY (at most every 100 ms, and at the end), plain lines (every ~10% or
 * 5 s) otherwise, e.g. in CI logs.
 */
export class Progress {
  private readonly tty: boolean;
  private lastLine = 0;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastPct = -1;
  private failures = 0;
  private errors = 0;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly quiet = false,
    private readonly now: () => number = Date.now,
  ) {
    this.tty = Boolean(stream.isTTY) && !process.env.CI;
  }

  update(record: CaseRecord, done: number): void {
    if (this.quiet) return;
    if (record.error) this.errors++;
    else if (record.grades.some((g) => !g.pass)) this.failures++;
    const last = done === this.total;
    const now = this.now();
    const pct = this.total ? Math.floor((done / this.total) * 100) : 100;
    if (this.tty) {
      if (!last && now - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = now;
      const width = 28;
      const filled = Math.round((pct / 100) * width);
      // the carriage return redraws the bar in place: written past the terminal guard (the line holds only numbers)
      rawWrite(
        this.stream,
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${this.status(done)}`,
      );
      if (last) this.stream.write('\n');
      return;
    }
    if (last || Math.floor(pct / 10) > Math.floor(this.lastPct / 10) || now - this.lastLine > 5000) {
      this.stream.write(`progress: ${pct}% ${this.status(done)}\n`);
      this.lastLine = now;
      this.lastPct = pct;
    }
  }

  private status(done: number): string {
    return `${done}/${this.total} cases · ${this.failures} with a failing grade · ${this.errors} errors`;
  }

  end(): void {
    if (this.tty && !this.quiet) this.stream.write('\n');
  }
}
