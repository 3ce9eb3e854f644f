package io.ants4j.pool;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * The pools' JDK Flight Recorder events, category {@code ants4j}, each carrying the name of its pool (for the
 * events of one sub-pool of a multi-pool, {@code <name>-<i>}):
 * <ul>
 * <li>{@code ants4j.SubmitBlocked}: a submitter had to wait for a worker; its duration is the wait (default
 *     threshold 20 ms).</li>
 * <li>{@code ants4j.SubmitRejected}: a submission was refused; {@code reason} is {@code closed},
 *     {@code overload}, {@code timeout}, {@code interrupted}, or {@code error} (no worker thread could be
 *     made or started, also when the thread factory or {@code Thread.start()} threw an {@code Error}).</li>
 * <li>{@code ants4j.TaskFailed}: a task threw; the throwable's class and message.</li>
 * <li>{@code ants4j.PoolTuned}: the requested size and the capacity before and after.</li>
 * <li>{@code ants4j.PoolReleased}: the pool was closed; whether running tasks were interrupted, and how many
 *     workers were alive.</li>
 * <li>{@code ants4j.PoolStatistics}: every second (by default) while a recording asks for it, one per open
 *     pool: running, idle, waiting, capacity and the {@link PoolStats} counters.</li>
 * </ul>
 *
 * <p>Implementation notes. Merely loading an event class makes the JDK register it with the recorder, which
 * costs hundreds of milliseconds the first time, so nothing here touches an event class before
 * {@link FlightRecorder#isInitialized()} says a recorder runs (a recording was started, on the command line, by
 * {@code jcmd} or through the API). Every method is called on a slow path only (a wait, a rejection, a failure,
 * a life-cycle change), never on a hand-off, and catches whatever the recorder throws: a failing event never
 * costs the pool a task, a count or a lock. Each method spells out the same few lines (check, make, fill,
 * commit) rather than share a helper: a helper taking an {@link Event} would make the verifier load every
 * event class with this one, and one taking a lambda would allocate before the recorder check, which a
 * submitter's slow path under memory pressure must not do.
 *
 * <p>The periodic statistics hook is one for the JVM, installed through a {@link FlightRecorderListener} when
 * the recorder initializes (so a JVM that never records pays only for the listener). It walks a set of
 * {@linkplain Registration weak references} to the open pools: a pool is in it from its construction or
 * reboot to its release, and one that is dropped without a release is forgotten once collected (the
 * references go through a queue that every registration and every run of the hook drains).
 */
final class PoolEvents {
    static final String CLOSED = "closed";
    static final String OVERLOAD = "overload";
    static final String TIMEOUT = "timeout";
    static final String INTERRUPTED = "interrupted";
    static final String ERROR = "error";

    private static final Set<Registration> POOLS = ConcurrentHashMap.newKeySet();
    private static final ReferenceQueue<AbstractWorkerPool> COLLECTED = new ReferenceQueue<>();

    private PoolEvents() {
    }

    /** A pool's entry in the periodic statistics; weak, so that it never keeps a pool alive. */
    static final class Registration extends WeakReference<AbstractWorkerPool> {
        Registration(AbstractWorkerPool pool) {
            super(pool, COLLECTED);
        }
    }

    /** Adds a pool to the periodic statistics (again, after a reboot). */
    static void register(Registration r) {
        try {
            Hook.installed();
            forgetCollected();
            POOLS.add(r);
        } catch (Throwable t) {
            // no statistics events for this pool; it works all the same
        }
    }

    /** Takes a released pool out of the periodic statistics. */
    static void unregister(Registration r) {
        try {
            POOLS.remove(r);
        } catch (Throwable t) {
            // the hook skips closed pools anyway
        }
    }

    private static void forgetCollected() {
        for (Object r; (r = COLLECTED.poll()) != null;) {
            POOLS.remove(r);
        }
    }

    /** Installs the statistics hook once per JVM, when the class is first used. */
    private static final class Hook {
        static {
            try {
                FlightRecorder.addListener(new FlightRecorderListener() {
                    @Override
                    public void recorderInitialized(FlightRecorder recorder) {
                        FlightRecorder.addPeriodicEvent(PoolStatistics.class, PoolEvents::emitStatistics);
                    }
                });
            } catch (Throwable t) {
                // a JVM without a usable recorder: no statistics events, pools work all the same
            }
        }

        private Hook() {
        }

        static void installed() {
            // loading the class ran the static initializer
        }
    }

    private static void emitStatistics() {
        forgetCollected();
        for (Registration r : POOLS) {
            AbstractWorkerPool pool = r.get();
            if (pool == null || pool.isClosed()) { // a reboot racing a release may leave a closed pool here
                continue;
            }
            try {
                PoolStatistics e = new PoolStatistics();
                if (!e.shouldCommit()) {
                    return;
                }
                PoolStats s = pool.stats();
                e.pool = pool.name();
                e.running = pool.running();
                e.idle = pool.idle();
                e.waiting = pool.waiting();
                e.capacity = pool.cap();
                e.submitted = s.submitted();
                e.completed = s.completed();
                e.failed = s.failed();
                e.rejected = s.rejected();
                e.blockedSubmits = s.blockedSubmits();
                e.blockedTime = s.blockedTime().toNanos();
                e.commit();
            } catch (Throwable t) {
                // one pool's statistics are lost for this period
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- events

    /**
     * Starts timing a submitter's wait for a worker.
     *
     * @return the event to {@linkplain #endBlocked end}, or {@code null} if nobody records it
     */
    static SubmitBlocked beginBlocked() {
        if (!FlightRecorder.isInitialized()) {
            return null;
        }
        try {
            SubmitBlocked e = new SubmitBlocked();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            return e;
        } catch (Throwable t) {
            return null;
        }
    }

    /** Ends the wait {@link #beginBlocked} began, committing it if it lasted longer than the threshold. */
    static void endBlocked(SubmitBlocked e, String pool) {
        if (e == null) {
            return;
        }
        try {
            e.end();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.commit();
            }
        } catch (Throwable t) {
            // the event is lost, nothing else
        }
    }

    static void rejected(String pool, String reason) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        try {
            SubmitRejected e = new SubmitRejected();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.reason = reason;
                e.commit();
            }
        } catch (Throwable t) {
            // the event is lost, nothing else
        }
    }

    static void taskFailed(String pool, Throwable failure) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        try {
            TaskFailed e = new TaskFailed();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.throwableClass = failure.getClass().getName();
                e.message = failure.getMessage();
                e.commit();
            }
        } catch (Throwable t) {
            // the event is lost, nothing else (a message that throws included)
        }
    }

    static void tuned(String pool, int size, int oldCapacity, int newCapacity) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        try {
            PoolTuned e = new PoolTuned();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.size = size;
                e.oldCapacity = oldCapacity;
                e.newCapacity = newCapacity;
                e.commit();
            }
        } catch (Throwable t) {
            // the event is lost, nothing else
        }
    }

    static void released(String pool, boolean interrupt, int running) {
        if (!FlightRecorder.isInitialized()) {
            return;
        }
        try {
            PoolReleased e = new PoolReleased();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.interrupt = interrupt;
                e.running = running;
                e.commit();
            }
        } catch (Throwable t) {
            // the event is lost, nothing else
        }
    }

    @Name("ants4j.SubmitBlocked")
    @Label("Submit Blocked")
    @Category("ants4j")
    @Description("A submitter waited for a worker of a full pool")
    @Threshold("20 ms")
    static final class SubmitBlocked extends Event {
        @Label("Pool")
        String pool;
    }

    @Name("ants4j.SubmitRejected")
    @Label("Submit Rejected")
    @Category("ants4j")
    @Description("A submission was refused")
    static final class SubmitRejected extends Event {
        @Label("Pool")
        String pool;

        @Label("Reason")
        @Description("closed, overload, timeout, interrupted, or error (no worker thread could be started)")
        String reason;
    }

    @Name("ants4j.TaskFailed")
    @Label("Task Failed")
    @Category("ants4j")
    @Description("A task threw; the throwable went to the panic handler or the logger")
    @StackTrace(false)
    static final class TaskFailed extends Event {
        @Label("Pool")
        String pool;

        @Label("Throwable Class")
        String throwableClass;

        @Label("Message")
        String message;
    }

    @Name("ants4j.PoolTuned")
    @Label("Pool Tuned")
    @Category("ants4j")
    @Description("The capacity of a pool was changed (or a change was asked for and ignored)")
    static final class PoolTuned extends Event {
        @Label("Pool")
        String pool;

        @Label("Requested Size")
        int size;

        @Label("Old Capacity")
        int oldCapacity;

        @Label("New Capacity")
        int newCapacity;
    }

    @Name("ants4j.PoolReleased")
    @Label("Pool Released")
    @Category("ants4j")
    @Description("A pool was closed")
    static final class PoolReleased extends Event {
        @Label("Pool")
        String pool;

        @Label("Interrupt")
        @Description("Whether the running tasks were interrupted (shutdownNow)")
        boolean interrupt;

        @Label("Running")
        @Description("Workers alive when the pool closed")
        int running;
    }

    @Name("ants4j.PoolStatistics")
    @Label("Pool Statistics")
    @Category("ants4j")
    @Description("The counts and counters of an open pool")
    @Period("1 s")
    @StackTrace(false)
    static final class PoolStatistics extends Event {
        @Label("Pool")
        String pool;

        @Label("Running")
        int running;

        @Label("Idle")
        int idle;

        @Label("Waiting")
        int waiting;

        @Label("Capacity")
        @Description("-1: unlimited")
        int capacity;

        @Label("Submitted")
        long submitted;

        @Label("Completed")
        long completed;

        @Label("Failed")
        long failed;

        @Label("Rejected")
        long rejected;

        @Label("Blocked Submits")
        long blockedSubmits;

        @Label("Blocked Time")
        @Timespan
        long blockedTime;
    }
}
