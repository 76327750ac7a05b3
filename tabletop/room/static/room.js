// The room page and the console: draw the room's snapshot, redraw on every push (texts through T.t:
// load /static/common.js and /static/i18n.js first).
"use strict";
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children) node.append(c === null || c === undefined ? "" : c);
  return node;
}
// the live view both pages show in their #room-view: the leaderboard, the tables, the counts
function mountRoomView() {
  document.getElementById("room-view").replaceWith(
    el("h2", {}, T.t("Leaderboard")), el("div", {id: "leaderboard", class: "boards"}), el("p", {id: "rolls"}),
    el("h2", {}, T.t("Tables")), el("div", {id: "tables"}), el("p", {id: "counts"}));
}
function drawRoom(room) {
  document.getElementById("room-name").textContent = room.room;
  document.getElementById("connected").textContent = room.connected ? T.t("connected to the broker") : T.t("broker unreachable");
  document.getElementById("connected").className = room.connected ? "ok" : "bad";
  const boards = document.getElementById("leaderboard");
  boards.replaceChildren();
  for (const [game, lines] of Object.entries(room.leaderboard)) {
    const rows = lines.map((s, i) => el("tr", {"data-player": s.player},
      el("td", {}, String(i + 1)), el("td", {}, s.player), el("td", {class: "points"}, String(s.points)),
      el("td", {}, String(s.wins)), el("td", {}, String(s.games)),
      el("td", {}, s.tables.join(" ")), room.room_unique ? el("td", {class: "room-unique"}, String(s.extra)) : ""));
    boards.append(el("section", {class: "board", "data-game": game}, el("h2", {}, game),
      el("table", {}, el("thead", {}, el("tr", {}, ...["#", "player", "points", "wins", "games", "tables"].concat(room.room_unique ? ["room-unique"] : [])
        .map(h => el("th", {}, T.t(h))))), el("tbody", {}, ...rows))));
  }
  const tables = document.getElementById("tables");
  tables.replaceChildren(...room.tables.map(t => el("article",
    {class: "table " + (t.online ? "online" : "offline"), id: "table-" + t.table, "data-online": String(t.online)},
    el("h3", {}, T.t("Table {table}", {table: t.table}) + ` · ${t.game || "?"} ${t.variant || ""}`),
    el("p", {class: "who"}, t.online ? T.t("online") : T.t("OFFLINE")),
    el("p", {class: "totals"}, Object.entries(t.totals || {}).map(([p, v]) => `${p} ${v}`).join(", ")),
    el("p", {class: "status"}, (t.paused ? T.t("paused") + " · " : "") + (t.over ? T.t("game over") : (t.status || ""))),
    el("p", {class: "seq"}, T.t("entries {n} of {total}", {n: t.applied_seq || 0, total: t.table_seq || 0})
      + (t.waiting ? " " + T.t("({n} waiting for a gap)", {n: t.waiting}) : "")),
    el("p", {class: "health"}, Object.entries(t.health || {}).map(([d, s]) => `${T.t(d)}: ${T.t(s)}`).join(" · ")))));
  document.getElementById("counts").textContent = T.t("{counted} entries counted · {duplicates} duplicates dropped · {refused} messages refused",
    {counted: room.counted, duplicates: room.duplicates, refused: room.refused});
  const rolls = document.getElementById("rolls");
  if (rolls) rolls.textContent = room.rolls.length ? T.t("Duplicate rolls:") + " " + room.rolls.map(r => r.join(" ")).join(" | ") : "";
  const refusals = document.getElementById("refusals");
  if (refusals) refusals.replaceChildren(...room.refusals.map(r => el("li", {}, `${r.topic}: ${r.reason}`)));
}
function follow() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?lang=" + (T.lang || "en"));
  ws.onmessage = m => drawRoom(JSON.parse(m.data));
  ws.onclose = () => setTimeout(follow, 1000);
}
T.ready.then(() => { mountRoomView(); follow(); });
