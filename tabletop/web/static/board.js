// The tap grid of the seat and host pages (loaded after common.js; no build step, no framework).
//
// It draws the board as printed (vision/printing.py): each square coloured by its value with the
// value's digit, the marks (! Chance, ★ star, ◆ diamond start, hatched: not playable), the zone
// lines and the margin labels (A.. across the top, 1.. down the side), and the letters already on
// the board. Squares are at least 36 CSS px, in a box that scrolls both ways (a 19x19 board pans
// on a phone) with zoom buttons; the page may still be pinched. A tap picks the first square of a
// word; preview() draws a word on the squares it would take, marking clashes and what runs off.
//
//   const grid = new T.TapGrid(box, { onPick: (row, col, name) => ... });
//   grid.show(view.board);              // the views' printed board (tabletop/session/views.py)
//   grid.pick({ row: 6, col: 2 });       // or null
//   grid.preview('CAT', 'across');       // -> { squares, off, clashes }
//
// T.letterPad(box, alphabet, onLetter, onBack): big letter buttons for a child who cannot type yet.

//: the printed fills by value (vision/printing.py VALUE_COLOURS, there in BGR)
const VALUE_FILLS = { 0: '#fcfcfc', 1: '#fcfcfc', 2: '#ffe8a0', 3: '#aad7fa', 4: '#beeeb9', 5: '#ffbecd',
                      6: '#e6c8e6', 7: '#e6e6c8', 8: '#d7d7d7', 9: '#f0d2be' };
//: what a printed mark shows on a square (views.MARKS names them)
const MARK_SIGNS = { '!': '!', '*': '★', 'D': '◆', '#': '' };
//: square sizes in CSS px, smallest first: never under 36 px, a finger's width
const GRID_SIZES = [36, 44, 56, 72];

T.TapGrid = class {
  constructor(box, options) {
    this.box = box;
    this.onPick = (options && options.onPick) || (() => {});
    this.board = null;
    this.key = '';
    this.picked = null;
    this.size = +(localStorage.getItem('tabletop-grid-size') || 44);
    if (!GRID_SIZES.includes(this.size)) this.size = 44;
    this.zoomOut = T.el('button', { type: 'button', class: 'zoom', 'data-zoom': 'out', title: T.t('Smaller squares'),
                                    onclick: () => this.zoom(-1) }, '−');
    this.zoomIn = T.el('button', { type: 'button', class: 'zoom', 'data-zoom': 'in', title: T.t('Bigger squares'),
                                   onclick: () => this.zoom(1) }, '+');
    this.grid = T.el('div', { class: 'tapgrid' });
    this.scroller = T.el('div', { class: 'gridscroll' }, this.grid);
    this.note = T.el('div', { class: 'gridnote' });
    box.replaceChildren(T.el('div', { class: 'gridtools' }, this.zoomOut, this.zoomIn), this.scroller, this.note);
  }

  // bigger (+1) or smaller (-1) squares, keeping the middle of the view where it was
  zoom(step) {
    const at = GRID_SIZES.indexOf(this.size) + step;
    if (at < 0 || at >= GRID_SIZES.length) return;
    const scroller = this.scroller, fx = (scroller.scrollLeft + scroller.clientWidth / 2) / (scroller.scrollWidth || 1),
          fy = (scroller.scrollTop + scroller.clientHeight / 2) / (scroller.scrollHeight || 1);
    this.size = GRID_SIZES[at];
    localStorage.setItem('tabletop-grid-size', String(this.size));
    this.grid.style.setProperty('--sq', `${this.size}px`);
    this.zoomOut.disabled = at === 0;
    this.zoomIn.disabled = at === GRID_SIZES.length - 1;
    scroller.scrollLeft = fx * scroller.scrollWidth - scroller.clientWidth / 2;
    scroller.scrollTop = fy * scroller.scrollHeight - scroller.clientHeight / 2;
  }

  // draw `board` ({rows, cols, values, marks, zones, letters}); its squares are built once a board
  show(board) {
    if (!board || !board.rows) return;
    const key = [board.rows, board.cols, ...board.values, ...board.marks].join('|');
    if (key !== this.key) this.build(board, key);
    this.board = board;
    for (const b of this.squares()) {
      const ch = board.letters ? board.letters[+b.dataset.row][+b.dataset.col] : '.';
      b.dataset.letter = ch === '.' ? '' : ch.toUpperCase();
      b.classList.toggle('written', ch !== '.');
      b.classList.toggle('blank', ch !== '.' && ch !== ch.toUpperCase());   // Questique: a blank tile
      b.querySelector('.ch').textContent = b.dataset.letter;
    }
    this.preview(this.word || '', this.dir || 'across');
  }

  build(board, key) {
    this.key = key;
    this.grid.style.setProperty('--sq', `${this.size}px`);
    this.grid.style.gridTemplateColumns = `var(--lab) repeat(${board.cols}, var(--sq))`;
    this.grid.style.gridTemplateRows = `var(--lab) repeat(${board.rows}, var(--sq))`;
    this.zoomOut.disabled = this.size === GRID_SIZES[0];
    this.zoomIn.disabled = this.size === GRID_SIZES[GRID_SIZES.length - 1];
    const zone = (r, c) => (board.zones ? board.zones[r][c] : '.');
    const cells = [T.el('span', { class: 'corner' })];
    for (let c = 0; c < board.cols; c++) cells.push(T.el('span', { class: 'label top' }, T.colName(c)));
    for (let r = 0; r < board.rows; r++) {
      cells.push(T.el('span', { class: 'label side' }, String(r + 1)));
      for (let c = 0; c < board.cols; c++) {
        const name = T.squareName(r, c), value = board.values[r][c], mark = board.marks[r][c];
        const kind = { '!': 'chance', '*': 'star', 'D': 'diamond', '#': 'blocked' }[mark] || '';
        const cls = ['sq', `v${value}`, kind,
                     c + 1 < board.cols && zone(r, c) !== zone(r, c + 1) ? 'zr' : '',
                     r + 1 < board.rows && zone(r, c) !== zone(r + 1, c) ? 'zb' : ''].filter(Boolean);
        cells.push(T.el('button', { type: 'button', class: cls.join(' '), 'data-square': name, 'data-row': r, 'data-col': c,
                                    'data-value': value, 'data-mark': mark, title: name,
                                    style: `background-color:${VALUE_FILLS[value] || VALUE_FILLS[0]}`,
                                    onclick: () => { this.pick({ row: r, col: c }); this.onPick(r, c, name); } },
          T.el('small', { class: 'val' }, value !== '0' ? value : ''),
          T.el('i', { class: 'mark' }, MARK_SIGNS[mark] || ''),
          T.el('b', { class: 'ch' })));
      }
    }
    this.grid.replaceChildren(...cells);
    // a new board: its centre in view (the first word of most games goes there)
    requestAnimationFrame(() => {
      this.scroller.scrollLeft = (this.scroller.scrollWidth - this.scroller.clientWidth) / 2;
      this.scroller.scrollTop = (this.scroller.scrollHeight - this.scroller.clientHeight) / 2;
    });
  }

  squares() { return this.grid.querySelectorAll('button.sq'); }
  square(r, c) { return this.grid.querySelector(`button.sq[data-row="${r}"][data-col="${c}"]`); }
  onBoard(sq) { return !!(sq && this.board && sq.row >= 0 && sq.col >= 0 && sq.row < this.board.rows && sq.col < this.board.cols); }

  // a real square of this board to name in examples: its centre (G7 on a 13x13 board)
  example() { return this.board ? T.squareName(Math.floor(this.board.rows / 2), Math.floor(this.board.cols / 2)) : 'A1'; }

  // the first square of the word (null: none); false if it is not on this board
  pick(sq) {
    for (const b of this.grid.querySelectorAll('button.picked')) b.classList.remove('picked');
    this.picked = this.onBoard(sq) ? { row: sq.row, col: sq.col } : null;
    if (this.picked) this.square(this.picked.row, this.picked.col).classList.add('picked');
    this.preview(this.word || '', this.dir || 'across');
    return !!this.picked;
  }

  // draw `text` from the picked square along `dir`: each letter on its square, a clash with a
  // letter already there (or a square not to be played) marked, letters that run off the board counted
  preview(text, dir) {
    this.word = text;
    this.dir = dir;
    for (const b of this.grid.querySelectorAll('button.preview')) {
      b.classList.remove('preview', 'clash', 'same', 'new');
      delete b.dataset.preview;
      b.querySelector('.ch').textContent = b.dataset.letter || '';
    }
    const letters = [...(text || '').toUpperCase()].filter(ch => /\p{L}/u.test(ch));
    const out = { squares: [], off: 0, clashes: 0 };
    if (this.picked && letters.length) {
      const [dr, dc] = dir === 'down' ? [1, 0] : [0, 1];
      letters.forEach((ch, k) => {
        const sq = { row: this.picked.row + dr * k, col: this.picked.col + dc * k };
        if (!this.onBoard(sq)) { out.off += 1; return; }
        const b = this.square(sq.row, sq.col), there = b.dataset.letter;
        const clash = (there && there !== ch) || b.dataset.mark === '#';
        b.classList.add('preview', clash ? 'clash' : there ? 'same' : 'new');
        b.dataset.preview = ch;
        b.querySelector('.ch').textContent = ch;
        out.clashes += clash ? 1 : 0;
        out.squares.push(T.squareName(sq.row, sq.col));
      });
    }
    this.note.replaceChildren(...this.sentences(letters.join(''), dir, out).map(s => T.el('div', { class: s.bad ? 'bad' : 'ok' }, s.text)));
    this.note.hidden = !this.note.childElementCount;
    return out;
  }

  sentences(word, dir, out) {
    if (!this.picked || !word) return [];
    const from = T.squareName(this.picked.row, this.picked.col), lines = [];
    if (out.off === 1) lines.push({ bad: true, text: T.t('One letter runs off the board.') });
    else if (out.off > 1) lines.push({ bad: true, text: T.t('{n} letters run off the board.', { n: out.off }) });
    if (out.clashes === 1) lines.push({ bad: true, text: T.t('One letter does not match the square it falls on (marked red).') });
    else if (out.clashes > 1) lines.push({ bad: true, text: T.t('{n} letters do not match the squares they fall on (marked red).', { n: out.clashes }) });
    if (!lines.length) lines.push({ bad: false, text: dir === 'down' ? T.t('{word} fits down from {square}.', { word, square: from }) : T.t('{word} fits across from {square}.', { word, square: from }) });
    return lines;
  }
};

// big buttons, one a letter of `alphabet`, and a "take back the last letter" button
T.letterPad = function (box, alphabet, onLetter, onBack) {
  if (box.dataset.alphabet === alphabet) return;
  box.dataset.alphabet = alphabet;
  box.replaceChildren(...[...alphabet].map(ch => T.el('button', { type: 'button', class: 'letter', 'data-letter': ch,
                                                               onclick: () => onLetter(ch) }, ch)),
    T.el('button', { type: 'button', class: 'letter back', 'data-letter': 'back', title: T.t('Take back the last letter'),
                     onclick: () => onBack() }, '⌫'));
};
