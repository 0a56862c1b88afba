// Embeds three positions of the Card Table site (given as ?site=...) and listens to their events.
// The test reads window.__messages and sends commands with window.__send(frameId, command).

const site = new URLSearchParams(location.search).get("site");
const FIGURES = [
  {
    id: "carbondale",
    caption: "Carbondale, Figure 1: a network five cards wide and three tall",
    query: { game: "carbondale", position: "figure-1" },
  },
  {
    id: "carbles",
    caption: "Carbles: a 7 to split between two marbles (seat 1's view)",
    query: {
      game: "carbles", players: "4", seat: "0",
      position: JSON.stringify({ marbles: [["t0", "t8"], ["t20"], [], []], seed: 1 }),
    },
  },
  {
    id: "cardcassonne",
    caption: "Card-cassonne: the 6♡ at (1, 0) merges two hearts areas",
    query: {
      game: "cardcassonne", seat: "0",
      position: JSON.stringify({
        board: [[0, 0, "5♡"], [2, 0, "7♡"], [1, -1, "9♣"], [1, 1, "3♠"]],
        hands: [["6♡", "2♣"], ["4♢", "K♣"]],
        tokens: [[0, 0, 0], [2, 0, 1]],
        tokens_left: [6, 6],
      }),
    },
  },
];

window.__messages = [];
const frames = new Map();

function log(text) {
  const li = document.createElement("li");
  li.textContent = text;
  document.getElementById("events").append(li);
}

if (!site) {
  document.getElementById("missing").hidden = false;
} else {
  const siteOrigin = new URL(site).origin;
  for (const figure of FIGURES) {
    const params = new URLSearchParams({ ...figure.query, origin: location.origin });
    const box = document.createElement("figure");
    const frame = document.createElement("iframe");
    frame.src = new URL(`embed.html?${params}`, site).href;
    frame.title = figure.caption;
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin");
    const caption = document.createElement("figcaption");
    caption.textContent = figure.caption;
    box.append(frame, caption);
    document.getElementById("figures").append(box);
    frames.set(figure.id, frame);
  }
  addEventListener("message", (event) => {
    if (event.origin !== siteOrigin) return;
    const id = [...frames].find(([, frame]) => frame.contentWindow === event.source)?.[0];
    if (!id || typeof event.data !== "object" || event.data === null) return;
    window.__messages.push({ frame: id, ...event.data });
    if (event.data.type === "resize") frames.get(id).style.height = `${event.data.height + 2}px`;
    log(`${id}: ${JSON.stringify(event.data).slice(0, 200)}`);
  });
  window.__send = (id, command) => frames.get(id).contentWindow.postMessage(command, siteOrigin);
}
