// The pages in their players' language (docs/i18n.md). Load it after common.js.
//
// T.t(text, {name: value}), the text English, is the text in the page's language: the dictionary comes
// from /api/i18n (the [pages] table of tabletop/i18n/LANG.toml), the same templates as the
// table's messages ({name}; {n:one|few|many} picks a word by the number n). The page's own
// HTML texts (text, placeholder, title) are translated once the dictionary is in (T.ready).
// The page's language is the game's, until the switch in the header (EN | УК) picks another:
// that choice is kept in localStorage for this page (its path) alone. The API and the live view
// answer in the page's language (the X-Tabletop-Language header, ?lang= on the WebSocket).
T.LANGUAGES = { en: 'EN', uk: 'УК' };
T.langKey = 'tabletop-lang:' + location.pathname;
T.lang = localStorage.getItem(T.langKey) || '';
T.dict = {};

// which of a word's forms goes with n: Ukrainian 1 / 2-4 / 5+ (English: 1 / other)
T.pluralForm = (n, lang) => {
  n = Math.abs(Math.trunc(+n));
  if (lang !== 'uk') return n === 1 ? 0 : 1;
  if (n % 10 === 1 && n % 100 !== 11) return 0;
  if (n % 10 >= 2 && n % 10 <= 4 && !(n % 100 >= 12 && n % 100 <= 14)) return 1;
  return 2;
};

T.t = (text, params) => {
  const template = Object.prototype.hasOwnProperty.call(T.dict, text) ? T.dict[text] : text;
  return template.replace(/\{([a-z_][a-z0-9_]*)(?::([^{}]*))?\}/g, (whole, name, forms) => {
    if (!params || !(name in params)) return whole;
    if (forms === undefined) return String(params[name]);
    const list = forms.split('|');
    return list[Math.min(T.pluralForm(params[name], T.lang), list.length - 1)];
  });
};

// the page's own texts: every text node and placeholder/title/alt whose whole text is in the dictionary
T.translatePage = (root) => {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue.replace(/\s+/g, ' ').trim();
    if (text && T.dict[text] !== undefined) node.nodeValue = node.nodeValue.replace(node.nodeValue.trim(), T.dict[text]);
  }
  for (const el of root.querySelectorAll('[placeholder], [title], [alt]')) {
    for (const attr of ['placeholder', 'title', 'alt']) {
      const value = el.getAttribute(attr);
      if (value && T.dict[value] !== undefined) el.setAttribute(attr, T.dict[value]);
    }
  }
  if (T.dict[document.title] !== undefined) document.title = T.dict[document.title];
};

// the switch: EN | УК in the page's header; a choice reloads this page only
T.languageSwitch = () => {
  const header = document.querySelector('header');
  if (!header || header.querySelector('.langswitch')) return;
  const box = T.el('span', { class: 'langswitch', role: 'group', 'aria-label': 'Language' });
  for (const [code, label] of Object.entries(T.LANGUAGES)) {
    box.append(T.el('button', { type: 'button', 'data-lang': code, class: code === T.lang ? 'on' : '', 'aria-pressed': String(code === T.lang),
      onclick: () => { localStorage.setItem(T.langKey, code); location.reload(); } }, label));
  }
  header.append(box);
};

T.ready = (async () => {
  try {
    const r = await fetch('/api/i18n' + (T.lang ? '?lang=' + encodeURIComponent(T.lang) : ''));
    const body = await r.json();
    T.lang = body.language || 'en';
    T.dict = body.pages || {};
  } catch (e) { T.lang = T.lang || 'en'; }
  document.documentElement.lang = T.lang;
  if (T.lang !== 'en') T.translatePage(document.body);
  T.languageSwitch();
})();

// a word of the reveal that another player wrote too (the round's clashes: the same in every language)
T.clash = (row, round) => row.score === 0 && !!row.word && ((round.clashes || {})[row.word] || []).length > 1;
