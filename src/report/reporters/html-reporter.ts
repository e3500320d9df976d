import { join } from 'node:path';
import type { RunStart } from '../../contracts/reporter.js';
import type { CaseRecord } from '../../run-log/schema.js';
import type { BufferedFile } from '../../util/buffered-file.js';
import { writeAllSync, writeFileWhole } from '../../util/write-file.js';
import {
  DATA_CLOSE,
  DATA_FAILING,
  DATA_PASSING,
  DEFAULT_MAX_HTML_CASES,
  dataOpen,
  htmlFoot,
  htmlHead,
} from '../html.js';
import { HtmlCaseData } from '../html-data.js';
import type { BuiltinReporter, ReportEnd } from './builtin-reporter.js';
import { appendFile, PartFiles } from './part-files.js';

/**
 * report.html, the file-backed form of renderHtml (the same bytes): the case data goes into part files (index,
 * failing and passing details) as records go by, and the page is assembled at the end. Memory: the write buffers,
 * one chunk per stream and a few counters.
 */
export function htmlReporter(options: { maxHtmlCases?: number } = {}): BuiltinReporter {
  let parts: PartFiles | undefined;
  let outs: { index: BufferedFile; failing: BufferedFile; passing: BufferedFile } | undefined;
  let data: HtmlCaseData | undefined;
  let runDir = '';
  return {
    name: 'html',
    files: ['report.html'],
    onRunStart(run: RunStart) {
      runDir = run.runDir;
      parts = new PartFiles(runDir);
      outs = {
        index: parts.open('.report-index.part'),
        failing: parts.open('.report-failing.part'),
        passing: parts.open('.report-passing.part'),
      };
      data = new HtmlCaseData(run.header, outs, {
        maxDetails: options.maxHtmlCases ?? DEFAULT_MAX_HTML_CASES,
      });
    },
    onCase(r: CaseRecord) {
      data?.add(r);
    },
    onRunEnd(end: ReportEnd) {
      const [d, o, p] = [data, outs, parts];
      if (!d || !o || !p) return;
      try {
        const counts = d.finish();
        const meta = d.meta(counts);
        p.close();
        // under a temporary name until whole: a failure half-way leaves no partial report.html
        writeFileWhole(join(runDir, 'report.html'), (fd) => {
          writeAllSync(
            fd,
            htmlHead(
              end.aggregate,
              { counts, errors: d.errors(), meta },
              {
                ...(end.comparison !== undefined ? { comparison: end.comparison } : {}),
                ...(end.gate ? { gateLines: end.gate.lines } : {}),
              },
            ),
          );
          writeAllSync(fd, dataOpen(meta));
          appendFile(fd, o.index.file);
          writeAllSync(fd, DATA_FAILING);
          appendFile(fd, o.failing.file);
          writeAllSync(fd, DATA_PASSING);
          appendFile(fd, o.passing.file, counts.passingBytes);
          writeAllSync(fd, DATA_CLOSE);
          writeAllSync(fd, htmlFoot());
        });
      } finally {
        p.remove();
      }
    },
    discard() {
      parts?.remove();
    },
  };
}
