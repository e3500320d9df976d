/**
 * report.html's script: static text, no run data interpolated into it (the CSP pins its hash). It reads the case
 * data from <script type="application/json" id="tg-data"> (gzip+base64 chunks, inflated with DecompressionStream),
 * lists cases with true counts (paged, never capped), renders a case's details on demand, shows one case across
 * every strategy of a provider with a diff of the requests, and wires the matrix cells and the grader selectors.
 * Every run string reaches the page through textContent, never as markup.
 */
export const HTML_SCRIPT = String.raw`
'use strict';
const $ = (s, root) => (root || document).querySelector(s);
const PAGE = 50;
const blob = JSON.parse($('#tg-data').textContent);
const M = blob.meta;
const state = { q: '', g: '', r: '', p: '', o: 'any', page: 0 };
let cases = [];
const chunkCache = new Map();

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, String(v));
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) el.append(kid instanceof Node ? kid : String(kid));
  return el;
}

async function inflate(b64) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}

function chunk(where) {
  if (!where) return Promise.resolve(null);
  if (!chunkCache.has(where)) {
    const list = where[0] === 'f' ? blob.failing : blob.passing;
    const b64 = list[Number(where.slice(1))];
    chunkCache.set(where, b64 === undefined ? Promise.resolve(null) : inflate(b64).then((c) => {
      const map = new Map();
      for (const [ord, d] of c.c) map.set(ord, { d, s: c.s });
      return map;
    }));
  }
  return chunkCache.get(where);
}

async function detailOf(c) {
  try {
    const m = await chunk(c.where);
    return m ? m.get(c.ord) || null : null;
  } catch (e) {
    $('#cases-status').textContent = 'Could not read the case details: ' + e;
    return null;
  }
}

function loadIndex() {
  return blob.index.map((e, ord) => ({
    ord, key: e[0], suite: e[1], id: e[2], r: M.renderers[e[3]], p: M.providers[e[4]], ri: e[3], pi: e[4], repeat: e[5],
    tags: e[6], grades: e[7], err: e[8] || '', where: e[9] || '', low: (e[0] + ' ' + e[6].join(' ')).toLowerCase(),
  }));
}

// The list's order: failing cases first, then errored ones, then those that passed; within each, by suite and case
// (numbers in ids in numeric order), then renderer and provider in the run's order, then repeat.
const byName = new Intl.Collator('en', { numeric: true }).compare;
function group(c) { return c.grades.includes('0') ? 0 : c.err !== '' ? 1 : 2; }
function byUse(a, b) {
  return group(a) - group(b) || byName(a.suite, b.suite) || byName(a.id, b.id) || a.ri - b.ri || a.pi - b.pi || a.repeat - b.repeat;
}

function graded(c, gi) { return c.grades[gi] === '1' || c.grades[gi] === '0'; }
function failing(c) { return c.err !== '' || c.grades.includes('0'); }

function matches(c) {
  if (state.r && c.r !== state.r) return false;
  if (state.p && c.p !== state.p) return false;
  if (state.q) {
    const q = state.q.toLowerCase().trim();
    if (q.startsWith('tag:')) { if (!c.tags.some((t) => t.toLowerCase() === q.slice(4))) return false; }
    else if (!c.low.includes(q)) return false;
  }
  const gi = state.g ? M.graders.indexOf(state.g) : -1;
  switch (state.o) {
    case 'any': return gi < 0 || graded(c, gi);
    case 'pass': return gi < 0 ? !failing(c) : c.grades[gi] === '1';
    case 'fail': return gi < 0 ? c.err === '' && c.grades.includes('0') : c.grades[gi] === '0';
    case 'error': return c.err !== '';
  }
  return true;
}

function chips(c) {
  if (c.err) return [h('span', { class: 'chip err' }, 'error ' + c.err)];
  const out = [];
  M.graders.forEach((g, i) => {
    if (graded(c, i)) out.push(h('span', { class: 'chip ' + (c.grades[i] === '1' ? 'ok' : 'bad') }, (c.grades[i] === '1' ? '✓ ' : '✗ ') + g));
  });
  return out;
}

function pre(cls, text) { return h('pre', { class: cls }, text); }
function S(d, x) { return typeof x === 'number' ? d.s[x] : x; }

function gradesList(d) {
  if (d.d.err) return h('p', { class: 'errtext' }, 'Infrastructure error ' + d.d.err[0] + ': ' + S(d, d.d.err[1]));
  return h('ul', { class: 'grades' }, d.d.gr.map(([g, pass, reason]) =>
    h('li', { class: pass ? 'ok' : 'bad' }, h('b', {}, (pass ? 'PASS ' : 'FAIL ') + g), ': ' + S(d, reason))));
}

function usageText(u) {
  if (!u) return '';
  let t = 'tokens in ' + u.input + ' / out ' + u.output;
  if (u.cached) t += ' · cache read ' + u.cached;
  if (u.cacheWrite) t += ' · cache write ' + u.cacheWrite;
  return t;
}

function renderDetail(c, d) {
  const box = h('div', { class: 'body' });
  if (!d) {
    box.append(h('p', { class: 'muted' }, 'Details of this case are not embedded in the page (see the note above the list); they are in run.jsonl.'));
    return box;
  }
  const x = d.d;
  box.append(
    h('p', { class: 'muted' }, (x.sim ? 'simulated provider · ' : '') + 'stop: ' + x.stop + ' · ' + x.ms + ' ms · prompt ' + x.pt + ' tokens (estimate) · provider-reported ' + usageText(x.u)),
    h('h4', {}, 'Grades'), gradesList(d),
    h('h4', {}, 'Final answer'), pre('final', S(d, x.fin)),
  );
  x.tu.forEach((t, i) => {
    // a conversation: each user message heads the model turns that answer it
    if (t.ut !== undefined && (i === 0 || x.tu[i - 1].ut !== t.ut)) {
      const said = t.msgs ? t.msgs.filter(([r]) => S(d, r) === 'user').pop() : undefined;
      box.append(h('h4', { class: 'userturn' }, 'User message ' + (t.ut + 1)), pre('said', said ? S(d, said[1]) : ''));
    }
    const turn = h('div', { class: 'turn' }, h('h4', {}, 'Turn ' + (i + 1) + (t.ut !== undefined ? ' · answering user message ' + (t.ut + 1) : '') + ' · protocol ' + t.pr));
    if (t.rec) turn.append(h('p', { class: 'muted' }, 'Recorded reply, graded offline: the prompt it answered was not recorded.'));
    else {
      if (t.sys !== undefined) turn.append(h('h5', {}, 'Rendered system prompt'), pre('prompt', S(d, t.sys)));
      else turn.append(h('p', { class: 'muted' }, 'System prompt: same as the previous turn.'));
      if (t.tools !== undefined) turn.append(h('h5', {}, 'Native tool definitions'), pre('tools', S(d, t.tools)));
      turn.append(h('h5', {}, i ? 'Messages (new this turn)' : 'Messages'), pre('messages', t.msgs.map(([r, m]) => S(d, r) + ':\n' + S(d, m)).join('\n\n')));
    }
    turn.append(h('h5', {}, 'Raw reply ', h('span', { class: 'muted' }, 'finish: ' + t.fin + ' · ' + t.ms + ' ms' + (t.u ? ' · ' + usageText(t.u) : ''))), pre('reply', S(d, t.rep)));
    if (t.nc !== undefined) turn.append(h('h5', {}, 'Native tool calls'), pre('native', S(d, t.nc)));
    turn.append(h('h5', {}, 'Parsed calls'), pre('parsed', S(d, t.pc)));
    if (t.dg !== undefined) turn.append(h('h5', {}, 'Parse diagnostics'), pre('diag', S(d, t.dg)));
    if (t.ex) turn.append(h('h5', {}, 'Tool results fed back'), pre('executed', t.ex.map((e) => S(d, e)).join('\n\n')));
    box.append(turn);
  });
  if (x.st !== undefined) box.append(h('h4', {}, 'State after the conversation (what expect.state read)'), pre('state', S(d, x.st)));
  return box;
}

function caseRow(c) {
  const li = h('li', { class: 'case', 'data-key': c.key, 'data-renderer': c.r, 'data-provider': c.p });
  const body = h('div', { class: 'slot' });
  const toggle = h('button', { class: 'open', type: 'button', 'aria-expanded': 'false', on: { click: async () => {
    if (body.firstChild) { body.textContent = ''; toggle.setAttribute('aria-expanded', 'false'); return; }
    toggle.setAttribute('aria-expanded', 'true');
    body.append(renderDetail(c, await detailOf(c)));
  } } }, c.key);
  const across = h('button', { class: 'across', type: 'button', on: { click: () => showAcross(c) } }, 'compare strategies');
  li.append(toggle, ' ', ...chips(c), c.tags.length ? h('span', { class: 'tags' }, ' tags: ' + c.tags.join(', ')) : '', ' ', across, body);
  return li;
}

function render() {
  const hits = cases.filter(matches);
  const pages = Math.max(1, Math.ceil(hits.length / PAGE));
  state.page = Math.min(state.page, pages - 1);
  $('#count').textContent = String(hits.length);
  $('#page').textContent = 'page ' + (state.page + 1) + ' of ' + pages;
  $('#prev').disabled = state.page === 0;
  $('#next').disabled = state.page >= pages - 1;
  const list = $('#case-list');
  list.textContent = '';
  list.start = state.page * PAGE + 1;
  for (const c of hits.slice(state.page * PAGE, (state.page + 1) * PAGE)) list.append(caseRow(c));
}

function setFilters(next, keepHash) {
  Object.assign(state, next, { page: 0 });
  $('#f-q').value = state.q; $('#f-grader').value = state.g; $('#f-renderer').value = state.r;
  $('#f-provider').value = state.p; $('#f-outcome').value = state.o;
  render();
  // the filters live in the address, so a link (or a reload) shows the same list
  if (!keepHash) {
    const params = new URLSearchParams();
    for (const k of ['q', 'g', 'r', 'p', 'o']) if (state[k] && !(k === 'o' && state.o === 'any')) params.set(k, state[k]);
    history.replaceState(null, '', '#cases?' + params.toString());
  }
}

function filtersFromHash() {
  if (!location.hash.startsWith('#cases?')) return null;
  const params = new URLSearchParams(location.hash.slice('#cases?'.length));
  const next = { q: '', g: '', r: '', p: '', o: 'any' };
  for (const k of Object.keys(next)) if (params.has(k)) next[k] = params.get(k);
  return next;
}

// ---- one case across every strategy of a provider ----
function lineDiff(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  if (x.length * y.length > 4e6) return null;
  const n = x.length, m = y.length;
  const L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) { out.push([' ', x[i]]); i++; j++; }
    else if (L[i + 1][j] >= L[i][j + 1]) out.push(['-', x[i++]]);
    else out.push(['+', y[j++]]);
  }
  while (i < n) out.push(['-', x[i++]]);
  while (j < m) out.push(['+', y[j++]]);
  return out;
}

function requestText(d) {
  if (!d) return null;
  const t = d.d.tu[0];
  if (!t || t.rec) return '';
  let s = '[system]\n' + S(d, t.sys);
  if (t.tools !== undefined) s += '\n[tools]\n' + S(d, t.tools);
  s += '\n[messages]\n' + t.msgs.map(([r, m]) => S(d, r) + ':\n' + S(d, m)).join('\n\n');
  return s;
}

function diffView(base, other) {
  const d = lineDiff(base, other);
  if (!d) return pre('diff', 'Too large to diff here.');
  const box = h('pre', { class: 'diff' });
  let same = 0;
  const flush = () => { if (same) { box.append(h('span', { class: 'same' }, '  … ' + same + ' identical line(s)\n')); same = 0; } };
  for (const [op, line] of d) {
    if (op === ' ') { same++; continue; }
    flush();
    box.append(h('span', { class: op === '+' ? 'ins' : 'del' }, op + ' ' + line + '\n'));
  }
  flush();
  if (!d.some(([op]) => op !== ' ')) box.append('(identical requests)');
  return box;
}

async function showAcross(c) {
  const view = $('#case-view');
  view.hidden = false;
  const same = cases.filter((o) => o.suite === c.suite && o.id === c.id && o.p === c.p && o.repeat === c.repeat);
  same.sort((a, b) => M.renderers.indexOf(a.r) - M.renderers.indexOf(b.r));
  const details = await Promise.all(same.map(detailOf));
  const texts = details.map(requestText);
  const baseSel = h('select', { id: 'cv-base', 'aria-label': 'diff against' }, same.map((o, i) => h('option', { value: String(i) }, o.r)));
  const grid = h('div', { class: 'cv-grid' });
  const draw = () => {
    grid.textContent = '';
    const bi = Number(baseSel.value);
    same.forEach((o, i) => {
      const d = details[i];
      const col = h('div', { class: 'cv-col', 'data-renderer': o.r }, h('h3', {}, o.r), h('p', {}, ...chips(o)));
      if (!d) col.append(h('p', { class: 'muted' }, 'Details not embedded in the page.'));
      else {
        const t = d.d.tu[0];
        col.append(h('h4', {}, 'Request (turn 1)'), pre('cv-request', texts[i] || '(no request recorded)'));
        if (i !== bi && texts[bi] !== null && texts[i] !== null) col.append(h('h4', {}, 'Diff against ' + same[bi].r + ' (- only there, + only here)'), diffView(texts[bi], texts[i]));
        col.append(h('h4', {}, 'Reply (turn 1)'), pre('cv-reply', t ? S(d, t.rep) : ''));
        if (t && t.nc !== undefined) col.append(h('h5', {}, 'Native tool calls'), pre('native', S(d, t.nc)));
        if (d.d.tu.length > 1) col.append(h('p', { class: 'muted' }, d.d.tu.length + ' turns; final answer:'), pre('final', S(d, d.d.fin)));
        col.append(h('h4', {}, 'Grades'), gradesList(d));
      }
      grid.append(col);
    });
  };
  baseSel.addEventListener('change', draw);
  view.textContent = '';
  view.append(
    h('h2', {}, 'One case across strategies'),
    h('p', {}, h('code', {}, c.suite + '/' + c.id), ' · provider ' + c.p + ' · repeat ' + c.repeat + ' · ' + same.length + ' strategies · diff against ', baseSel, ' ',
      h('button', { type: 'button', on: { click: () => { view.hidden = true; } } }, 'close')),
    grid,
  );
  draw();
  view.scrollIntoView();
}

// ---- wiring ----
function selectOptions(sel, values) { for (const v of values) sel.append(h('option', { value: v }, v)); }

function wire() {
  selectOptions($('#f-grader'), M.graders);
  selectOptions($('#f-renderer'), M.renderers);
  selectOptions($('#f-provider'), M.providers);
  $('#f-q').addEventListener('input', (ev) => setFilters({ q: ev.target.value }));
  $('#f-grader').addEventListener('change', (ev) => setFilters({ g: ev.target.value }));
  $('#f-renderer').addEventListener('change', (ev) => setFilters({ r: ev.target.value }));
  $('#f-provider').addEventListener('change', (ev) => setFilters({ p: ev.target.value }));
  $('#f-outcome').addEventListener('change', (ev) => setFilters({ o: ev.target.value }));
  $('#prev').addEventListener('click', () => { state.page--; render(); });
  $('#next').addEventListener('click', () => { state.page++; render(); });
  for (const a of document.querySelectorAll('a.cell')) {
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      setFilters({ q: '', g: a.dataset.grader, r: a.dataset.renderer, p: a.dataset.provider, o: a.dataset.outcome || 'any' });
      $('#cases').scrollIntoView();
    });
  }
  const sg = $('#s-grader');
  const showGrader = () => { for (const el of document.querySelectorAll('#strategies [data-grader]')) el.hidden = el.dataset.grader !== sg.value; };
  sg.addEventListener('change', showGrader);
  showGrader();
}

wire();
cases = loadIndex().sort(byUse);
const fromHash = filtersFromHash();
if (fromHash) {
  setFilters(fromHash, true);
  $('#cases').scrollIntoView();
} else render();
if (typeof DecompressionStream === 'undefined') {
  $('#cases-status').textContent = 'This browser cannot read the embedded case details (it lacks DecompressionStream); use a current Chromium, Firefox or Safari.';
} else $('#cases-status').textContent = '';
document.body.dataset.readyMs = String(performance.now());
document.body.dataset.ready = '1';
`;
