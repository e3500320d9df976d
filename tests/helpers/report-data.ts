import { gunzipSync } from 'node:zlib';

/** The case data of a report.html, decoded as the page's script decodes it. For tests only. */
export interface ReportData {
  meta: { renderers: string[]; providers: string[]; graders: string[]; counts: Record<string, number> };
  index: unknown[][];
  /** Each details chunk: its string table and [ordinal, detail] items. */
  failing: { s: string[]; c: [number, unknown][] }[];
  passing: { s: string[]; c: [number, unknown][] }[];
}

export function reportData(html: string): ReportData {
  const open = '<script type="application/json" id="tg-data">';
  const i = html.indexOf(open);
  if (i < 0) throw new Error('no case data in the page');
  const j = html.indexOf('</script>', i);
  const raw = JSON.parse(html.slice(i + open.length, j)) as {
    meta: ReportData['meta'];
    index: unknown[][];
    failing: string[];
    passing: string[];
  };
  const inflate = (b64: string) => JSON.parse(gunzipSync(Buffer.from(b64, 'base64')).toString('utf8'));
  return { meta: raw.meta, index: raw.index, failing: raw.failing.map(inflate), passing: raw.passing.map(inflate) };
}

/** The page's text with its compressed case details written out: what a search of the report for a string must see. */
export function reportText(html: string): string {
  const d = reportData(html);
  return `${html}\n${JSON.stringify([...d.failing, ...d.passing])}`;
}
