#!/usr/bin/env bash
# Draws docs/images/distlock-dashboard.png: the panels of ops/grafana/distlock-dashboard.json, filled by the sample
# under load, as a real Prometheus answers their queries.
#
# Starts two instances of the sample on free loopback ports: the first with its embedded ZooKeeper on a free port,
# the second (profile "external") on that same ZooKeeper, so that they share every lock, the leader group and the
# restock job, which fires every two seconds on both (the instance whose firing claims a slot runs it, the other
# skips it: locked while that run goes on, slot_taken after). A Prometheus on loopback scrapes both
# /actuator/prometheus every second and loads ops/prometheus/distlock-alerts.yml. The instances are put under load
# for LOAD_SECONDS (60) from bounded curl loops; twice during it the restock job is paused for PAUSE_SECONDS (6)
# through the distlock actuator endpoint and resumed, so that its firings skip (paused) and the run after the pause
# counts the slots no instance ran (missed). Then it evaluates every panel's query over the load (failing when
# Prometheus rejects one or it returns no data) and every alert rule's expression, and draws every panel's series
# with Chart.js (from npm) in headless Chromium; a panel whose series stay at zero (no lock lost, no acquisition
# failed: nothing here breaks ZooKeeper) is said to be so, in the output and on the picture. Installs what is
# missing: Debian's prometheus and chromium, npm's chart.js (in a temporary directory). Nothing is left running.
# Usage: ops/render-dashboard.sh [output.png]   (MVNW_OPTS=-o builds offline)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-$root/docs/images/distlock-dashboard.png}
load_seconds=${LOAD_SECONDS:-60}
pause_seconds=${PAUSE_SECONDS:-6}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "render-dashboard FAILED: $1" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

if ! command -v prometheus >/dev/null || ! command -v chromium >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    prometheus chromium fonts-dejavu-core >/dev/null
fi
promtool check rules ops/prometheus/distlock-alerts.yml >/dev/null || fail "promtool rejects the alert rules"
(cd "$work" && npm install --silent --no-audit --no-fund chart.js@4 >/dev/null 2>&1) || fail "npm install chart.js"

echo "== building the sample"
./mvnw -B -q ${MVNW_OPTS:-} -pl sample-app -am package -DskipTests
jar=$(ls sample-app/target/sample-app-*.jar | grep -v -- '-plain' | head -1)
zk_port=$(free_port)
ports=($(free_port) $(free_port))
# The restock job fires every two seconds on both instances; the period only names its runs in the sample's log.
common=(--server.address=127.0.0.1 --shop.think-time=20ms --shop.report-time=1500ms
  --shop.initial-stock.widget=100000 --shop.initial-stock.gadget=100000
  "--shop.restock.cron=*/2 * * * * *" --shop.restock.period=2s)
java -Xmx384m -jar "$jar" --server.port="${ports[0]}" --shop.instance-id=shop-a \
  --distlock.zookeeper.embedded.port="$zk_port" "${common[@]}" >"$work/sample-a.log" 2>&1 &
pids+=($!)
bases=("http://127.0.0.1:${ports[0]}" "http://127.0.0.1:${ports[1]}")
wait_healthy() { # base, log
  local deadline=$((SECONDS + 180))
  until curl -sf "$1/actuator/health" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || { tail -30 "$2" >&2; fail "the sample at $1 did not start"; }
    sleep 1
  done
}
wait_healthy "${bases[0]}" "$work/sample-a.log"
# The second instance on the first one's embedded ZooKeeper (it keeps its own in-memory database).
java -Xmx384m -jar "$jar" --spring.profiles.active=external --server.port="${ports[1]}" --shop.instance-id=shop-b \
  --distlock.zookeeper.connect-string="127.0.0.1:$zk_port" "${common[@]}" \
  >"$work/sample-b.log" 2>&1 &
pids+=($!)
wait_healthy "${bases[1]}" "$work/sample-b.log"
base=${bases[0]}
# Meters are registered at a template's first acquisition.
for b in "${bases[@]}"; do
  curl -sf -X POST "$b/api/inventory/widget/purchase?quantity=1" >/dev/null || fail "the first purchase at $b failed"
  curl -sf "$b/actuator/prometheus" >"$work/scrape.txt" || fail "no /actuator/prometheus at $b"
  grep -q '^distlock_lock_acquire_seconds_count' "$work/scrape.txt" || fail "no distlock meters at $b/actuator/prometheus"
done

prom_port=$(free_port)
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $root/ops/prometheus/distlock-alerts.yml
scrape_configs:
  - job_name: distlock-sample
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ["127.0.0.1:${ports[0]}", "127.0.0.1:${ports[1]}"]
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
prom="http://127.0.0.1:$prom_port"
deadline=$((SECONDS + 60))
until curl -sf "$prom/api/v1/query?query=sum(up)" 2>/dev/null | grep '"value":\[[0-9.]*,"2"\]' >/dev/null; do
  [ $SECONDS -lt $deadline ] || { tail -20 "$work/prometheus.log" >&2; fail "Prometheus does not scrape both instances"; }
  sleep 1
done

echo "== $load_seconds s of load"
start=$(date +%s)
end=$((SECONDS + load_seconds))
loop() { # curl arguments...: one client, bounded by the deadline
  while [ $SECONDS -lt $end ]; do curl -s -o /dev/null --max-time 10 "$@" || true; done
}
# Each client on one instance, alternately: the instances contend for the same locks.
client=0
spread() { # curl arguments with the path as the last one: one client on the next instance
  local path=${*: -1}
  loop "${@:1:$#-1}" "${bases[$((client % 2))]}$path" & pids+=($!)
  client=$((client + 1))
}
for i in 1 2 3 4 5 6; do spread -X POST "/api/inventory/widget/purchase?quantity=1"; done
for i in 1 2; do
  spread -X POST -H 'Content-Type: application/json' \
    -d '{"lines":[{"sku":"widget","quantity":1},{"sku":"gadget","quantity":1}]}' "/api/orders"
done
for i in 1 2 3; do spread "/api/catalog/widget/quote?quantity=2"; done
spread -X PUT "/api/catalog/widget?priceCents=1100"
for i in 1 2 3 4 5; do spread "/api/reports/sales"; done
for i in 1 2; do spread -X POST "/api/inventory/gadget/deliveries?quantity=1"; done
# The restock job paused cluster-wide for a few of its slots, then resumed (as an operator would), twice: the
# missed-slots counter is registered by the first run that finds missed slots, already at its count, which
# increase() does not see; the second pause shows on the panel.
until_second() { # seconds into the load
  while [ $SECONDS -lt $((end - load_seconds + $1)) ]; do sleep 1; done
}
pause_restock() { # at: seconds into the load
  until_second "$1"
  curl -sf -X POST "$base/actuator/distlock/restock" -H 'Content-Type: application/json' -d '{"paused":true}' \
    >/dev/null || fail "pausing the restock job"
  echo "   restock paused at $(($(date +%s) - start)) s"
  sleep "$pause_seconds"
  curl -sf -X POST "${bases[1]}/actuator/distlock/restock" -H 'Content-Type: application/json' \
    -d '{"paused":false}' >/dev/null || fail "resuming the restock job"
  echo "   restock resumed at $(($(date +%s) - start)) s"
}
pause_restock $((load_seconds / 6))
pause_restock $((load_seconds * 2 / 5))
while [ $SECONDS -lt $end ]; do sleep 1; done
sleep 3
stop=$(date +%s)

echo "== every panel's query and every rule, through Prometheus"
python3 - "$prom" "$start" "$stop" "$root" "$work/panels.json" <<'PY'
import json, sys, urllib.parse, urllib.request
prom, start, stop, root, target = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
def get(path, **params):
    url = prom + path + "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=30) as response:
        answer = json.load(response)
    if answer.get("status") != "success":
        sys.exit("Prometheus rejected %s: %s" % (params, answer))
    return answer["data"]
dashboard = json.load(open(root + "/ops/grafana/distlock-dashboard.json"))
panels = []
for panel in dashboard["panels"]:
    series = []
    for target_ in panel["targets"]:
        expr = (target_["expr"].replace("$__rate_interval", "10s").replace("$job", ".*").replace("$instance", ".*"))
        data = get("/api/v1/query_range", query=expr, start=start, end=stop, step=2)
        if not data["result"]:
            sys.exit("no data for panel '%s': %s" % (panel["title"], expr))
        for result in data["result"]:
            legend = target_.get("legendFormat", "")
            for key, value in result["metric"].items():
                legend = legend.replace("{{" + key + "}}", value)
            points = [[float(t) - start, None if v in ("NaN", "+Inf", "-Inf") else float(v)] for t, v in result["values"]]
            series.append({"label": legend.strip() or expr, "points": points})
    values = [y for s in series for _, y in s["points"] if y is not None]
    zero = values and not any(values)
    print("ok - %-38s %2d series%s" % (panel["title"], len(series),
          "  (zero throughout: none happened in this run)" if zero else ""))
    panels.append({"title": panel["title"], "unit": panel["fieldConfig"]["defaults"].get("unit", "short"),
                   "grid": panel["gridPos"], "series": series, "zero": bool(zero)})
rules = get("/api/v1/rules")
evaluated = [r for g in rules["groups"] for r in g["rules"]]
for rule in evaluated:
    if rule.get("health") != "ok":
        sys.exit("rule %s: %s" % (rule["name"], rule.get("lastError")))
    print("ok - rule %-30s %s" % (rule["name"], rule.get("state", "")))
json.dump({"panels": panels, "seconds": stop - start}, open(target, "w"))
PY

echo "== drawing"
cp "$work/node_modules/chart.js/dist/chart.umd.js" "$work/chart.js" 2>/dev/null \
  || cp "$work/node_modules/chart.js/dist/chart.umd.min.js" "$work/chart.js"
{
  echo '<!doctype html><html><head><meta charset="utf-8"><script src="chart.js"></script><style>'
  echo 'body{margin:0;background:#111217;color:#ccccdc;font-family:"DejaVu Sans",sans-serif}'
  echo 'h1{font-size:18px;font-weight:normal;margin:12px 16px}'
  echo '.grid{display:grid;grid-template-columns:1fr 1fr;gap:8px;padding:0 8px 8px}'
  echo '.panel{box-sizing:border-box;background:#181b1f;border:1px solid #2c3235;border-radius:2px;padding:6px 8px;height:250px;display:flex;flex-direction:column}'
  echo '.panel h2{font-size:13px;font-weight:500;margin:0 0 4px}.panel div{flex:1;position:relative}'
  echo '</style></head><body>'
  echo '<h1>distlock &mdash; two instances of the sample under load, as Prometheus answers the dashboard&#39;s queries</h1><div class="grid" id="grid"></div><script>'
  echo "const data = $(cat "$work/panels.json");"
  cat <<'JS'
const colors = ['#73bf69', '#f2cc0c', '#8ab8ff', '#ff780a', '#f2495c', '#5794f2', '#b877d9', '#fade2a', '#37872d', '#c4162a'];
const units = {s: (v) => v >= 1 ? v.toFixed(1) + ' s' : (v * 1000).toFixed(0) + ' ms', reqps: (v) => v.toFixed(1) + '/s',
  percentunit: (v) => (v * 100).toFixed(0) + '%', short: (v) => Number.isInteger(v) ? String(v) : v.toFixed(1)};
Chart.defaults.color = '#ccccdc';
Chart.defaults.font.family = 'DejaVu Sans';
Chart.defaults.font.size = 10;
for (const panel of data.panels) {
  const box = document.createElement('div');
  box.className = 'panel';
  box.style.gridColumn = 'span ' + Math.max(1, Math.round(panel.grid.w / 12));
  box.innerHTML = '<h2></h2><div><canvas></canvas></div>';
  box.querySelector('h2').textContent = panel.title + (panel.zero ? ' (zero throughout this run)' : '');
  document.getElementById('grid').appendChild(box);
  const format = units[panel.unit] || units.short;
  new Chart(box.querySelector('canvas'), {
    type: 'line',
    data: {datasets: panel.series.map((s, i) => ({label: s.label, data: s.points.map(([x, y]) => ({x, y})),
      borderColor: colors[i % colors.length], backgroundColor: colors[i % colors.length], borderWidth: 1.5,
      pointRadius: 0, spanGaps: false}))},
    options: {animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
      plugins: {legend: {position: 'bottom', labels: {boxWidth: 10, boxHeight: 2}}},
      scales: {x: {type: 'linear', min: 0, max: data.seconds, grid: {color: '#2c3235'},
                   ticks: {callback: (v) => v + ' s'}},
               y: {beginAtZero: true, grid: {color: '#2c3235'}, ticks: {callback: (v) => format(v)}}}}
  });
}
JS
  echo '</script></body></html>'
} >"$work/dashboard.html"
mkdir -p "$(dirname "$out")"
# Tall enough for every panel: 250 px a row of the dashboard's grid (8 grid units), 8 px between, the title above.
height=$(python3 -c 'import json, sys
rows = max(p["grid"]["y"] + p["grid"]["h"] for p in json.load(open(sys.argv[1]))["panels"]) // 8
print(44 + rows * 258 + 8)' "$work/panels.json")
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$work/chromium" --hide-scrollbars \
  --window-size=1400,"$height" --virtual-time-budget=5000 --screenshot="$out" "file://$work/dashboard.html" \
  >"$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; fail "chromium"; }
echo "render-dashboard: wrote $out"
