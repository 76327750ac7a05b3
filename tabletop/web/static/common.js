// Shared helpers of the Tabletop pages (no build step, no framework); texts through T.t (i18n.js).
const T = {
  lang: 'en',
  // a page text in the page's language (i18n.js replaces this English one once loaded)
  t(text, params) { return text.replace(/\{([a-z_][a-z0-9_]*)\}/g, (w, k) => (params && k in params ? String(params[k]) : w)); },
  token() { return new URLSearchParams(location.search).get('token') || sessionStorage.getItem('tabletop-token') || ''; },
  async get(url, token) {
    const r = await fetch(url, { headers: { ...(token ? { 'X-Tabletop-Token': token } : {}), 'X-Tabletop-Language': T.lang || 'en' } });
    return { status: r.status, body: await r.json() };
  },
  async post(url, body, token) {
    const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Tabletop-Token': token || '',
                                                          'X-Tabletop-Language': T.lang || 'en' },
                                 body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  },
  // keep a WebSocket open; call onView(view) on every update
  live(onView) {
    let clockAt = 0, serverNow = 0, paused = false;
    T.tableNow = () => paused ? serverNow : serverNow + (performance.now() - clockAt) / 1000;
    const open = () => {
      const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws?lang=' + (T.lang || 'en'));
      ws.onmessage = (m) => { const d = JSON.parse(m.data); if (d.view) {
        serverNow = d.view.now; paused = d.view.paused; clockAt = performance.now(); onView(d.view, d.type); } };
      ws.onclose = () => setTimeout(open, 1000);
    };
    open();
  },
  // a "scan the board" button: the phone's camera (or a file), uploaded to /api/scan; the answer in msgEl
  scanner(button, input, msgEl, tokenOf) {
    const say = (text, ok) => { msgEl.textContent = text; msgEl.className = 'msg ' + (ok ? 'ok' : 'error'); };
    button.onclick = () => input.click();
    input.onchange = async () => {
      const file = input.files[0];
      if (!file) return;
      say(T.t('Reading the photo…'), true);
      try {
        const r = await fetch('/api/scan', { method: 'POST', body: file,
          headers: { 'X-Tabletop-Token': tokenOf() || '', 'Content-Type': file.type || 'application/octet-stream' } });
        const body = await r.json();
        say(body.message || body.error || '', r.status === 200);
      } catch (e) { say(T.t('The photo could not be sent: {reason}', { reason: e.message })); }
      input.value = '';
    };
  },
  el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) { if (k === 'class') e.className = v; else if (k.startsWith('on')) e[k] = v; else e.setAttribute(k, v); }
    for (const k of kids) e.append(k);
    return e;
  },
  timers(box, timers) {
    box.replaceChildren(...timers.map(t => {
      const left = Math.max(0, t.ends - T.tableNow());
      const div = T.el('div', { class: 'timer' + (left <= 0 ? ' out' : ''), 'data-ends': t.ends, 'data-seconds': t.seconds },
        T.el('span', { class: 'label' }, `${T.t(t.name)}: `), T.el('b', { class: 'left' }, T.t('{n} s', { n: left.toFixed(0) })),
        T.el('div', { class: 'bar' }, T.el('div', { style: `width:${100 * left / t.seconds}%` })));
      return div;
    }));
  },
  // squares as the printed board names them: column letters from A, rows from 1
  colName(c) { let s = ''; c += 1; while (c > 0) { const r = (c - 1) % 26; s = String.fromCharCode(65 + r) + s; c = Math.floor((c - 1) / 26); } return s; },
  squareName(r, c) { return T.colName(c) + (r + 1); },
  // each seat's QR code and short code (/api/join: every seat for the host, seats not joined yet
  // for everyone else); the box is hidden when there is none to show
  async joinCodes(box, token) {
    const r = await T.get('/api/join', token);
    if (r.status !== 200) return;
    box.hidden = !r.body.seats.length;
    const list = box.querySelector('.joinlist');
    const key = r.body.seats.map(s => s.code).join();
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(...r.body.seats.map(s => T.el('figure', { class: 'join', 'data-seat': s.seat },
      T.el('img', { src: s.qr, alt: T.t("QR code for {seat}'s seat", { seat: s.seat }), width: '160', height: '160' }),
      T.el('figcaption', {}, T.el('b', {}, s.seat), ' ', T.el('code', { class: 'code' }, s.code)))));
    const where = box.querySelector('.joinurl');
    if (where) where.textContent = r.body.url;
  },
  // a tray of letter dice (the word grid): rows of faces, a wild face shown as a star
  tray(box, rows) {
    box.hidden = !rows;
    if (!rows) return;
    box.style.gridTemplateColumns = `repeat(${rows.length}, 2.6rem)`;
    box.replaceChildren(...rows.flat().map(f => T.el('span', { class: 'die' + (f.length > 1 ? ' two' : '') }, f === '*' ? '★' : f)));
  },
  tickTimers() {
    for (const d of document.querySelectorAll('.timer[data-ends]')) {
      const left = Math.max(0, +d.dataset.ends - T.tableNow());
      d.querySelector('.left').textContent = T.t('{n} s', { n: left.toFixed(0) });
      d.querySelector('.bar div').style.width = `${100 * left / +d.dataset.seconds}%`;
      d.classList.toggle('out', left <= 0);
    }
  },
};
setInterval(() => T.tableNow && T.tickTimers(), 200);
// the table's clock, NTP-style over the WebSocket /ws/clock: the shortest round trip of the last 12
// wins (docs/buzzers.md); clock.now() is the table time in seconds, or null until the first answer.
// A seat's socket (its token) is also timed by the table: its probes {"p": n} are echoed at once.
T.syncClock = function (token) {
  const clock = { samples: [], offset: null, now: () => clock.offset === null ? null : (performance.now() + clock.offset) / 1000 };
  const open = () => {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws/clock?token=' + encodeURIComponent(token || ''));
    let timer = null;
    ws.onopen = () => { const ping = () => ws.send(JSON.stringify({ c: performance.now() })); ping(); timer = setInterval(ping, 700); };
    ws.onmessage = (m) => {
      const got = performance.now(), d = JSON.parse(m.data);
      if ('p' in d) { ws.send(JSON.stringify({ p: d.p })); return; }
      const rtt = got - d.c;
      clock.samples.push({ rtt, offset: d.s * 1000 - (d.c + got) / 2 });
      if (clock.samples.length > 12) clock.samples.shift();
      clock.offset = clock.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a)).offset;
      window.__clock = { offset_ms: clock.offset, rtt_ms: Math.min(...clock.samples.map(s => s.rtt)), samples: clock.samples.length };
    };
    ws.onclose = () => { clearInterval(timer); setTimeout(open, 1000); };
  };
  open();
  return clock;
};
