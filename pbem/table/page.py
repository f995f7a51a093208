"""The projector's page: the map on the left, the round's log on the right, updated by asking
`/state.json` for the next version (answered the moment the table stores a step). After a change
the page asks again at once; after a wait that saw none, a second later; while the table does not
answer (the sitting is over), every two seconds. `?wait=S` sets how long the server may hold a
question (default 25 seconds)."""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>pbem table</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font-family: sans-serif; margin: 0; display: flex; gap: 1em; background: #fafafa; color: #1a1a1a; }
#map { flex: 3; padding: 0.5em; } #map svg { width: 100%; height: auto; }
#side { flex: 2; height: 100vh; overflow: auto; padding: 0.5em; }
#log { white-space: pre-wrap; font-size: 1.05em; } #status { font-weight: bold; } #step { color: #666; }
</style></head>
<body><main id="map"></main>
<aside id="side"><h1 id="title">waiting for the table</h1><p id="status"></p><pre id="log"></pre>
<p id="step" data-version="-1"></p></aside>
<script>
const wait = new URLSearchParams(location.search).get('wait') || '25';
let version = -1;
function show(s) {
  version = s.version;
  document.getElementById('title').textContent = s.title;
  document.getElementById('status').textContent = s.status;
  if (s.svg) document.getElementById('map').innerHTML = s.svg;
  document.getElementById('log').textContent = s.log.join('\\n');
  const step = document.getElementById('step');
  step.textContent = 'step ' + s.version + ', ' + new Date().toLocaleTimeString();
  step.dataset.version = s.version;
  const side = document.getElementById('side');
  side.scrollTop = side.scrollHeight;
}
async function poll() {
  try {
    const answer = await fetch('state.json?after=' + version + '&wait=' + wait, {cache: 'no-store'});
    const s = await answer.json();
    const changed = s.version !== version;
    if (changed) show(s);
    setTimeout(poll, changed ? 0 : 1000);
  } catch (e) {
    document.getElementById('status').textContent = 'the table does not answer; trying again';
    setTimeout(poll, 2000);
  }
}
poll();
</script></body></html>
"""
