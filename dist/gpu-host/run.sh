#!/usr/bin/env bash
# On the GPU host (bin/pack-dist-for-gpu made this folder): the distribution, on its own Java
# runtime, starts from an empty directory on the demo data; /health turns ready; Flight SQL answers
# a query, and SSB Q1.1 with EXPLAIN ANALYZE, which says where each pipeline ran.
set -u
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
tar -xJf "$here/dist-lib.tar.xz" -C "$d"
dist=$(echo "$d"/starling-*)
tar -xJf "$here/dist-jre.tar.xz" -C "$dist"
mkdir "$d/run" && cd "$d/run"
start=$(date +%s%N)
"$dist/bin/starling" --port 33010 --demo-sf "${SF:-1}" --no-console > server.log 2>&1 &
pid=$!
code=000
for _ in $(seq 1 600); do
  code=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:33011/health || true)
  [[ $code == 200 ]] && break
  sleep 0.5
done
echo "/health $code after $(( ($(date +%s%N) - start) / 1000000 )) ms"
q11="SELECT sum(lo_extendedprice * lo_discount) AS revenue FROM ssb.lineorder, ssb.dwdate WHERE lo_orderdate = d_datekey AND d_year = 1993 AND lo_discount BETWEEN 1 AND 3 AND lo_quantity < 25"
"$dist/jre/bin/java" --add-opens=java.base/java.nio=ALL-UNNAMED -cp "$here/smoke:$dist/lib/*" FlightSmoke 33010 \
  "SELECT count(*) AS nations FROM nation" "EXPLAIN ANALYZE $q11" "$q11" 2>&1 | grep -v "^WARN\|SLF4J\|^\[main\] INFO"
curl -s http://127.0.0.1:33011/metrics | grep -E "^starling_(queries_total|gpu_available)"
kill $pid
wait $pid
grep -E "GpuBackend|ERROR" server.log | head -20
rm -rf "$d"
