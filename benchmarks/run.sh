#!/usr/bin/env bash
# ants4j benchmarks: builds what it needs with ./mvnw, runs the comparison, prints a table as it goes
# and writes the report (Markdown + SVG) to benchmarks/target/report/.
#
#   benchmarks/run.sh              headline: locks at 1/2/4/8 threads, the trivial-task pool cases,
#                                  1M x 10 ms tasks once per case; short settings, about 4 minutes
#   benchmarks/run.sh --full       every benchmark, 3 forks, 1M tasks 3 runs per case: about 100 minutes here
#                                  (the channels an estimated 12-18 of them, 2 forks; not yet timed)
#   benchmarks/run.sh --smoke      everything with the shortest settings: proves it runs, about 6 minutes (numbers mean nothing)
#
# Other options: --only locks,vlocks,rwlocks,waitgroup,forkjoin,once,cond,semaphore,taskgroup,singleflight,pool,parallel,channels,million
# (parts of the plan), --no-build (reuse benchmarks/target/benchmarks.jar), --publish (copy the report to docs/ afterwards:
# docs/benchmarks.md, the charts it shows and docs/benchmarks-data/ with its JSON; a run with --only P,Q publishes
# docs/benchmarks-P-Q.md with its charts and JSON in docs/benchmarks-P-Q/ instead, leaving the full report as it is).
# Reports merge: java -cp benchmarks/target/benchmarks.jar io.ants4j.benchmarks.report.Report --out DIR a.json b.json
# No JAVA_HOME needed: the build picks a JDK 21+ through Maven toolchains and records its java
# launcher in benchmarks/target/java (.mvn/JdkFacts.java), and the benchmarks run on that JDK.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
publish=0
only=
args=()
prev=
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        --publish) publish=1 ;;
        *) args+=("$a") ;;
    esac
    if [ "$prev" = --only ]; then
        only="$a"
    fi
    prev="$a"
done

if [ "$build" = 1 ] || [ ! -f benchmarks/target/benchmarks.jar ] || [ ! -f benchmarks/target/java ]; then
    echo "building benchmarks/target/benchmarks.jar (./mvnw -pl benchmarks -am package) ..."
    ./mvnw -B -q -pl benchmarks -am package -Dmaven.test.skip=true
fi

java="$(sed -n 1p benchmarks/target/java)"
feature="$(sed -n 2p benchmarks/target/java)"
flags=()
if [ "$feature" -ge 23 ]; then
    # The JMH harness itself uses sun.misc.Unsafe; the forked benchmark JVMs are audited instead.
    flags+=(--sun-misc-unsafe-memory-access=allow)
fi

cd benchmarks
"$java" ${flags[@]+"${flags[@]}"} -cp target/benchmarks.jar io.ants4j.benchmarks.Suite \
    --out target/report --command "benchmarks/run.sh${*:+ $*}" ${args[@]+"${args[@]}"}
cd ..

if [ "$publish" = 1 ]; then
    # Only the charts the report shows: target/report may hold older ones of parts this run left out.
    report=benchmarks/target/report
    charts=$(grep -o 'bench-[A-Za-z0-9-]*\.svg' "$report/benchmarks.md" | sort -u || true)
    if [ -z "$only" ]; then
        name=benchmarks
        data=docs/benchmarks-data
        mkdir -p "$data"
        cp "$report/benchmarks.md" docs/benchmarks.md
        for c in $charts; do cp "$report/$c" docs/; done
    else
        # A part of the plan: beside the full report, never over it (its own charts and data directory).
        name="benchmarks-${only//,/-}"
        data="docs/$name"
        mkdir -p "$data"
        sed "s#](bench-#]($name/bench-#g" "$report/benchmarks.md" > "docs/$name.md"
        for c in $charts; do cp "$report/$c" "$data/"; done
    fi
    # the JVM's path is this machine's: a published file names the launcher only
    sed 's#"jvm" : "[^"]*"#"jvm" : "java"#' "$report/jmh-result.json" > "$data/jmh-result.json"
    if [ -f "$report/million.json" ] && { [ -z "$only" ] || [[ ",$only," == *,million,* ]]; }; then
        cp "$report/million.json" "$data/"
    fi
    echo "published: docs/$name.md, its charts and $data/ (jmh-result.json to merge into a later report)"
fi
