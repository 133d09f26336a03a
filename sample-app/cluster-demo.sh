#!/usr/bin/env bash
# Cluster demo: one ZooKeeper server, one H2 database server and three instances of the sample shop,
# all separate processes on 127.0.0.1. Concurrent purchases of a limited stock are spread over the three
# instances, first with distlock, then with locking switched off (distlock.enabled=false).
# Every process the script starts is stopped when it exits, however it exits.
#
#   sample-app/cluster-demo.sh                 # from the repository root, or from anywhere
#   STOCK=30 WORKERS_PER_INSTANCE=2 PURCHASES_PER_WORKER=15 THINK_TIME=20ms sample-app/cluster-demo.sh
#   MVNW_OPTS=-o sample-app/cluster-demo.sh    # build offline
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$ROOT/sample-app/target/cluster-demo"
ZK_PORT="${ZK_PORT:-22181}"
H2_PORT="${H2_PORT:-29092}"
APP_PORTS=(${APP_PORTS:-18081 18082 18083})
STOCK="${STOCK:-30}"
WORKERS_PER_INSTANCE="${WORKERS_PER_INSTANCE:-2}"
PURCHASES_PER_WORKER="${PURCHASES_PER_WORKER:-15}"
THINK_TIME="${THINK_TIME:-20ms}"
STARTUP_TIMEOUT="${STARTUP_TIMEOUT:-300}"
# Every process started here carries this marker on its command line: pgrep -f finds them and only them.
MARKER="distlock.cluster-demo=$$"
JAVA_OPTS=(-D"$MARKER" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)

PIDS=()
APP_PIDS=()

log() { printf '%s\n' "$*"; }

stop_pids() {
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "$@"; do
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  stop_pids "${APP_PIDS[@]}" "${PIDS[@]}"
  local left
  left="$(pgrep -f "$MARKER" || true)"
  if [ -n "$left" ]; then
    log "processes left behind: $left"
    status=1
  else
    log "processes left behind: none"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for_port() { # port seconds name pid
  local deadline=$((SECONDS + $2))
  until port_in_use "$1"; do
    kill -0 "$4" 2>/dev/null || { log "$3 exited; see its log in $WORK"; return 1; }
    [ "$SECONDS" -lt "$deadline" ] || { log "$3 did not open port $1 within $2 s"; return 1; }
    sleep 0.5
  done
}

for port in "$ZK_PORT" "$H2_PORT" "${APP_PORTS[@]}"; do
  if port_in_use "$port"; then log "port $port is in use; set ZK_PORT, H2_PORT or APP_PORTS"; exit 1; fi
done

rm -rf "$WORK" && mkdir -p "$WORK/zookeeper-data"

log "== building the sample once, and the classpath of its dependencies"
(cd "$ROOT" && ./mvnw -B -q ${MVNW_OPTS:-} -pl sample-app -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$WORK/classpath.txt" -Dmdep.includeScope=runtime)
JAR="$(ls "$ROOT"/sample-app/target/sample-app-*.jar | grep -v original | head -1)"
CLASSPATH_DEPS="$(cat "$WORK/classpath.txt")"

cat > "$WORK/logback.xml" <<EOF
<configuration>
  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="out"/></root>
</configuration>
EOF

log "== starting ZooKeeper (org.apache.zookeeper.server.ZooKeeperServerMain) on 127.0.0.1:$ZK_PORT"
cat > "$WORK/zoo.cfg" <<EOF
tickTime=2000
dataDir=$WORK/zookeeper-data
clientPort=$ZK_PORT
clientPortAddress=127.0.0.1
admin.enableServer=false
EOF
java "${JAVA_OPTS[@]}" -Dlogback.configurationFile="$WORK/logback.xml" -cp "$CLASSPATH_DEPS" \
  org.apache.zookeeper.server.ZooKeeperServerMain "$WORK/zoo.cfg" \
  > "$WORK/zookeeper.log" 2>&1 &
PIDS+=($!)
wait_for_port "$ZK_PORT" 60 ZooKeeper "${PIDS[-1]}"

log "== starting H2 (org.h2.tools.Server -tcp) on 127.0.0.1:$H2_PORT"
java "${JAVA_OPTS[@]}" -Dh2.bindAddress=127.0.0.1 -cp "$CLASSPATH_DEPS" org.h2.tools.Server \
  -tcp -tcpPort "$H2_PORT" -ifNotExists > "$WORK/h2.log" 2>&1 &
PIDS+=($!)
wait_for_port "$H2_PORT" 60 H2 "${PIDS[-1]}"

start_instances() { # run-name extra-args...
  local run="$1" port
  shift
  APP_PIDS=()
  for port in "${APP_PORTS[@]}"; do
    java "${JAVA_OPTS[@]}" -jar "$JAR" --spring.profiles.active=cluster \
      --server.address=127.0.0.1 --server.port="$port" --shop.instance-id="shop-$port" \
      --distlock.zookeeper.connect-string="127.0.0.1:$ZK_PORT" \
      --spring.datasource.url="jdbc:h2:tcp://127.0.0.1:$H2_PORT/mem:$run;DB_CLOSE_DELAY=-1" \
      --shop.initial-stock.demo="$STOCK" --shop.think-time="$THINK_TIME" --shop.restock.below=0 \
      "$@" > "$WORK/$run-$port.log" 2>&1 &
    APP_PIDS+=($!)
  done
  local i
  for i in "${!APP_PORTS[@]}"; do
    wait_for_port "${APP_PORTS[$i]}" "$STARTUP_TIMEOUT" "instance ${APP_PORTS[$i]}" "${APP_PIDS[$i]}"
  done
  # Seeded by whichever instance came first; wait until every instance sees it.
  for port in "${APP_PORTS[@]}"; do
    local deadline=$((SECONDS + 60))
    until curl -sf "http://127.0.0.1:$port/api/inventory/demo" | grep -q "\"available\":$STOCK"; do
      [ "$SECONDS" -lt "$deadline" ] || { log "instance $port does not see the stock"; return 1; }
      sleep 0.5
    done
  done
}

drive_purchases() { # run-name
  local run="$1" port w
  local workers=()
  for port in "${APP_PORTS[@]}"; do
    for w in $(seq 1 "$WORKERS_PER_INSTANCE"); do
      (
        for _ in $(seq 1 "$PURCHASES_PER_WORKER"); do
          curl -s -o /dev/null -w '%{http_code}\n' -X POST "http://127.0.0.1:$port/api/inventory/demo/purchase?quantity=1"
        done
      ) > "$WORK/$run-statuses-$port-$w.txt" &
      workers+=($!)
    done
  done
  wait "${workers[@]}"
  local accepted rejected other left attempts
  accepted="$(cat "$WORK/$run"-statuses-*.txt | grep -c '^200$' || true)"
  rejected="$(cat "$WORK/$run"-statuses-*.txt | grep -c '^409$' || true)"
  attempts="$(cat "$WORK/$run"-statuses-*.txt | wc -l)"
  other=$((attempts - accepted - rejected))
  left="$(curl -s "http://127.0.0.1:${APP_PORTS[0]}/api/inventory/demo" | sed -E 's/.*"available":(-?[0-9]+).*/\1/')"
  log "purchases sent   : $attempts ($((${#APP_PORTS[@]} * WORKERS_PER_INSTANCE)) concurrent clients over ${#APP_PORTS[@]} instances)"
  log "orders accepted  : $accepted"
  log "out of stock     : $rejected"
  [ "$other" -eq 0 ] || log "other answers    : $other (see $WORK/$run-*.log)"
  log "stock left       : $left (of $STOCK)"
  log "oversold         : $((accepted + left - STOCK))"
  OVERSOLD=$((accepted + left - STOCK))
}

log ""
log "== run 1: three instances WITH distlock (@DistributedLock(\"inventory/#{#sku}\"))"
start_instances locked
drive_purchases locked
LOCKED_OVERSOLD=$OVERSOLD
stop_pids "${APP_PIDS[@]}"
APP_PIDS=()

log ""
log "== run 2: the same three instances WITHOUT locking (--distlock.enabled=false)"
start_instances unlocked --distlock.enabled=false
drive_purchases unlocked
UNLOCKED_OVERSOLD=$OVERSOLD
stop_pids "${APP_PIDS[@]}"
APP_PIDS=()

log ""
if [ "$LOCKED_OVERSOLD" -eq 0 ] && [ "$UNLOCKED_OVERSOLD" -gt 0 ]; then
  log "result: with distlock nothing was oversold; without it $UNLOCKED_OVERSOLD items were sold that did not exist"
else
  log "result: UNEXPECTED (oversold with distlock: $LOCKED_OVERSOLD, without: $UNLOCKED_OVERSOLD)"
  exit 1
fi
