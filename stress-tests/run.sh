#!/usr/bin/env bash
# Runs the jcstress tests of ants4j from the jar the build made; builds nothing itself.
#
#   stress-tests/run.sh quick  [jcstress args...]  representative subset, jcstress -m quick -sc false (CI)
#   stress-tests/run.sh full   [jcstress args...]  every ants4j test, jcstress default mode
#   stress-tests/run.sh broken [jcstress args...]  the deliberately broken sample only: must FAIL (exit != 0)
#   stress-tests/run.sh list   [jcstress args...]  list the tests in the jar
#
# Build the jar first (from the repository root):  ./mvnw -B package -pl stress-tests -am
# Extra arguments go to jcstress as they are; "-t REGEX" replaces the mode's own selection, "-m MODE" its own
# preset, "-sc ..." quick's other settings and "-jvmArgs ..." quick's one VM configuration, e.g.
# stress-tests/run.sh quick -t SpinLock   or   run.sh full -m quick.
#
# jcstress runs on the JDK the build's toolchain chose (its java launcher is written to target/java
# by the build, see .mvn/JdkFacts.java), never on JAVA_HOME. The exit status is jcstress's own: non-zero
# when any test has a FORBIDDEN outcome, an unknown outcome, an error or a timeout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/target"
jar="$target/jcstress.jar"
javafile="$target/java"

usage() {
    sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 1 ]] || usage
mode="$1"
shift

# Every ants4j test; the broken sample lives in io.ants4j.stress.broken and is never part of it.
all='^io\.ants4j\.stress\.(primitives|pool|channels)\.'
# Representative subset for CI: one test per claim family of each primitive and of the pool, and the channels'
# five (send -> receive visibility, close racing send, FIFO of two sends, interrupt racing a hand-off, select
# exactly-one). The other tests of each primitive run in the full run; Fray and Lincheck explore the same claims.
# Once's is the outcome that value/func hand to their callers, which Fray cannot reach (OnceValueLateCallerDuringWakeUpTest,
# coverage review 21's mutant O-U; its callers run once too); OnceRunTest runs in the full run.
quick='^io\.ants4j\.stress\.(primitives\.(SpinLockMutex2Test|WaitGroupDoneAwaitVisibilityTest|TaskGroupFirstFailureRaceTest|OnceValueLateCallerDuringWakeUpTest|SingleFlightOneExecutionTest|CondNoLostWakeupTest|WeightedSemaphoreInterruptRacingGrantTest|MutexInterruptedWaiterRaceTest|RWMutexExclusionTest)|pool\.(PoolExecuteVisibilityTest|MultiPoolReleaseRacingRebootTest|PoolRebootRacingPurgeTest|PoolReleaseRacingExecuteTest)|channels\.(ChanSendReceiveVisibilityTest|ChanCloseRacingSendTest|ChanFifoTest|ChanInterruptRacingHandOffTest|SelectExactlyOneTest))$'

# quick runs each test in one VM configuration, C2 with its instruction-scheduling randomizers (a new seed per fork),
# where the auto-detected matrix has four (the interpreter, C1, C2, C2 randomized; -jvmArgs replaces the matrix):
# a test is then one fork, whose start-up is most of its time (about 4 s; the five iterations of 200 ms are cheap),
# not four. It also drops the split per-actor compilation (-sc false) and does not pre-touch each fork's heap
# (-pth false: 0.4 s a fork), so the subset keeps CI under its 20 minutes. full keeps them all.
quick_vm='-XX:+UnlockDiagnosticVMOptions -XX:-TieredCompilation -XX:+StressLCM -XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP'
extra=()
case "$mode" in
    quick)  preset=quick;   select="$quick"; extra=(-sc false -pth false) ;;
    full)   preset=default; select="$all" ;;
    broken) preset=quick;   select='^io\.ants4j\.stress\.broken\.' ;;
    list)   preset=quick;   select="$all" ;;
    -h|--help|help) usage ;;
    *) echo "unknown mode: $mode" >&2; usage ;;
esac

if [[ ! -f "$jar" || ! -f "$javafile" ]]; then
    echo "missing $jar; build it first: ./mvnw -B package -pl stress-tests -am" >&2
    exit 2
fi
java="$(sed -n 1p "$javafile")"
feature="$(sed -n 2p "$javafile")"
if [[ ! -x "$java" ]]; then
    echo "the java recorded in $javafile ($java) is gone; rebuild the module" >&2
    exit 2
fi

# Flags for jcstress's own VM and for every VM it forks: JNA (jcstress's affinity support) needs
# native access, and from JDK 23 on the project runs everything with sun.misc.Unsafe memory access denied.
# jcstress starts each fork with its own VM's arguments followed by -jvmArgsPrepend and the
# configuration's flags, so giving them to the host VM reaches every fork too (the "Probing what VM
# configurations are available" lines show them); prepending them as well would only repeat them.
flags=(--enable-native-access=ALL-UNNAMED)
if (( feature >= 23 )); then
    flags+=(--sun-misc-unsafe-memory-access=deny)
fi

args=()
user_t=0
user_m=0
user_sc=0
user_vm=0
for a in "$@"; do
    case "$a" in
        -t) user_t=1 ;;
        -m) user_m=1 ;;
        -sc) user_sc=1 ;;
        -jvmArgs) user_vm=1 ;;
    esac
done
(( user_m )) || args+=(-m "$preset")
(( user_t )) || args+=(-t "$select")
(( user_sc )) || args+=("${extra[@]}")
if [[ "$mode" == quick ]] && (( ! user_vm )); then
    args+=(-jvmArgs "$quick_vm")
fi
if [[ "$mode" == list ]]; then
    args+=(-l)
fi

# jcstress writes its result blob into the working directory and its HTML report to -r:
# keep both under target/. jcstress leaves the pages of earlier runs in the report folder, and the
# summary reads every page there, so each run starts from an empty folder.
results="$target/jcstress-$mode"
rm -rf "$results"
mkdir -p "$results"
cd "$results"

echo "jcstress on $java (JDK $feature), mode $mode: ${args[*]} $*" >&2
start=$SECONDS
set +e
"$java" "${flags[@]}" -jar "$jar" "${args[@]}" -r "$results/report" "$@"
rc=$?
set -e
echo "jcstress exited with $rc after $(( SECONDS - start )) s; report: $results/report/index.html" >&2
# Per-test samples and outcomes, summed over all VM configurations (see Summary.java).
if [[ "$mode" != list && -d "$results/report" ]]; then
    "$java" "$here/Summary.java" "$results/report" > "$results/summary.md" || true
    cat "$results/summary.md"
    echo "summary: $results/summary.md" >&2
fi
exit "$rc"
