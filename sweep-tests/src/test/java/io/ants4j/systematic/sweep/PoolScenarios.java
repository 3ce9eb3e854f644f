package io.ants4j.systematic.sweep;

import static io.ants4j.systematic.sweep.Probe.check;
import static io.ants4j.systematic.sweep.Probe.noneOrOutOfMemory;
import static io.ants4j.systematic.sweep.Probe.until;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.ants4j.pool.LoadBalancing;
import io.ants4j.pool.MultiPool;
import io.ants4j.pool.MultiPoolWithFunc;
import io.ants4j.pool.Pool;
import io.ants4j.pool.PoolClosedException;
import io.ants4j.pool.PoolOptions;
import io.ants4j.pool.PoolWithFunc;
import io.ants4j.pool.WorkerPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The sweep's scenarios for the pools: every entry point of {@link Pool}, {@link PoolWithFunc}, {@link MultiPool}
 * and {@link MultiPoolWithFunc}, on the default virtual-thread workers and on platform workers.
 */
final class PoolScenarios {
    private static final int CAP = 2;
    /** The idle workers a pool's stack holds before it grows. */
    private static final int IDLE_STACK = 16;
    /** A purger period short enough to purge within a held run; the ticker runs ten times as often. */
    private static final Duration SHORT_EXPIRY = Duration.ofMillis(50);
    /** The name of the pools {@code Pool.newPool} makes: their threads are found by it. */
    private static final String NEW_POOL = "sweep-new-pool";
    private static final Consumer<Object> RUN = o -> ((Runnable) o).run();

    private PoolScenarios() {
    }

    /** The default (virtual) workers, or platform ones. */
    enum Workers {
        VIRTUAL(""), PLATFORM(" (platform workers)");

        final String suffix;

        Workers(String suffix) {
            this.suffix = suffix;
        }

        PoolOptions options(Duration expiry, Logger logger, boolean preAlloc) {
            PoolOptions.Builder b = PoolOptions.builder().expiryDuration(expiry).logger(logger).preAlloc(preAlloc);
            if (this == PLATFORM) {
                b.threadFactory(Thread.ofPlatform().daemon(true).name("sweep-worker-", 0).factory());
            }
            return b.build();
        }
    }

    /** Keeps what the pool logs (a task or the purger failing) without allocating. */
    static final class Logger implements System.Logger {
        final AtomicInteger logged = new AtomicInteger();
        volatile Throwable last;

        @Override
        public String getName() {
            return "sweep";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, Supplier<String> msgSupplier, Throwable thrown) {
            record(thrown);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            record(thrown);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            record(null);
        }

        private void record(Throwable thrown) {
            logged.incrementAndGet();
            last = thrown;
        }
    }

    /** A pool of one of the four kinds, tasks that count their runs, a gate that holds a task, helpers. */
    static final class PoolState {
        final Logger logger = new Logger();
        final AtomicInteger ran = new AtomicInteger();
        final Runnable task = ran::incrementAndGet;
        final Callable<Object> callable = () -> {
            ran.incrementAndGet();
            return this;
        };
        final List<Callable<Object>> two = List.of(callable, callable);
        final CountDownLatch gate = new CountDownLatch(1);
        final CountDownLatch gated = new CountDownLatch(1);
        final AtomicInteger interrupted = new AtomicInteger();
        /**
         * Runs until the gate opens or it is interrupted. An interrupt that wakes it while the heap is still
         * exhausted ends the wait with an OutOfMemoryError instead (no memory for the InterruptedException, the
         * status already cleared), so that error counts as the interrupt too. (It would also end a wait that had
         * not yet parked when the heap was filled: that run then does not show the interrupt, the other runs do.)
         */
        final Runnable held = () -> {
            gated.countDown();
            try {
                gate.await(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException | OutOfMemoryError e) {
                interrupted.incrementAndGet();
            }
        };
        final WorkerPool pool;
        /** The pool as an executor ({@link Pool}, {@link MultiPool}), else null. */
        final ExecutorService executor;
        final PoolWithFunc<Object> func;
        final MultiPoolWithFunc<Object> multiFunc;
        Probe.Helper helper;
        volatile Object result;
        volatile Future<?> future;
        /** What the blocked submitter got: a rejection, or an OutOfMemoryError (woken while the heap is exhausted). */
        volatile Throwable rejected;
        /** The timeout of a timed submission that waits in vain (allocated here, not by the operation). */
        final Duration shortWait = Duration.ofMillis(20);
        /** The timeout of a {@code releaseTimeout} that waits in vain (allocated here, not by the operation). */
        final Duration releaseWait = Duration.ofMillis(300);
        /** The operation's interrupt status when it ended. */
        volatile boolean interruptedAfter;
        /** The sweep's runner thread, which runs the operation. */
        Thread runner;

        PoolState(String kind, Workers workers, Duration expiry) {
            this(kind, workers, expiry, CAP);
        }

        /** A {@code Pool} of capacity {@code cap} (the other kinds: {@link #CAP}). */
        PoolState(String kind, Workers workers, Duration expiry, int cap) {
            this(kind, workers, expiry, cap, false);
        }

        /**
         * As above; with {@code preAlloc}, the idle workers wait in a ring allocated up front
         * ({@link PoolOptions#preAlloc()}).
         */
        PoolState(String kind, Workers workers, Duration expiry, int cap, boolean preAlloc) {
            PoolOptions o = workers.options(expiry, logger, preAlloc);
            switch (kind) {
                case "Pool" -> {
                    Pool p = Pool.newPool(cap, o);
                    pool = p;
                    executor = p;
                    func = null;
                    multiFunc = null;
                }
                case "PoolWithFunc" -> {
                    func = PoolWithFunc.newPool(CAP, RUN, o);
                    pool = func;
                    executor = null;
                    multiFunc = null;
                }
                case "MultiPool" -> {
                    MultiPool p = MultiPool.newMultiPool(2, CAP, LoadBalancing.ROUND_ROBIN, o);
                    pool = p;
                    executor = p;
                    func = null;
                    multiFunc = null;
                }
                case "MultiPoolWithFunc" -> {
                    multiFunc = MultiPoolWithFunc.newMultiPool(2, CAP, RUN, LoadBalancing.ROUND_ROBIN, o);
                    pool = multiFunc;
                    executor = null;
                    func = null;
                }
                default -> throw new IllegalArgumentException(kind);
            }
        }

        /** Hands {@code r} to the pool the way its kind does. */
        void run(Runnable r) {
            if (executor != null) {
                executor.execute(r);
            } else if (func != null) {
                func.invoke(r);
            } else {
                multiFunc.invoke(r);
            }
        }

        /** Runs one task and waits until its worker is idle again. */
        PoolState withIdleWorker() {
            run(task);
            until(() -> "the task ran and its worker is idle: " + pool, () -> ran.get() == 1 && pool.idle() >= 1
                    && pool.running() == 1);
            ran.set(0);
            return this;
        }

        /** Starts the held task and waits until it runs. */
        PoolState withHeldTask() {
            run(held);
            until(() -> "the held task runs", () -> gated.getCount() == 0);
            return this;
        }

        /** Starts a submitter that blocks (the pool is full) and keeps what rejected it, if anything. */
        PoolState withBlockedSubmitter() {
            int before = pool.waiting();
            helper = Probe.start("submitter", () -> {
                try {
                    run(task);
                } catch (RejectedExecutionException | OutOfMemoryError e) {
                    rejected = e;
                }
            });
            until(() -> "the submitter blocks: " + pool, () -> pool.waiting() == before + 1);
            return this;
        }

        /** Fills the pool with held tasks. */
        PoolState full() {
            for (int i = 0; i < pool.cap(); i++) {
                run(held);
            }
            until(() -> "the pool is full: " + pool, () -> pool.running() == pool.cap() && pool.free() == 0);
            return this;
        }
    }

    /** The options of a pool to be made, and the pool once made. */
    static final class NewPool {
        /** The default (virtual) workers; the purger's period short, so that it runs within a check. */
        final PoolOptions options = PoolOptions.builder().name(NEW_POOL).expiryDuration(SHORT_EXPIRY).build();
        volatile Pool made;
    }

    /** The purger and ticker of pools named {@link #NEW_POOL} that run: one line each of a thread dump. */
    static List<String> backgroundThreads() {
        try {
            Path dump = Files.createTempDirectory("sweep-threads").resolve("threads.txt");
            try {
                // virtual threads too: Thread.getAllStackTraces lists the platform threads only
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                        .dumpThreads(dump.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
                return Files.readAllLines(dump).stream().filter(line -> line.contains('"' + NEW_POOL + "-purger\"")
                        || line.contains('"' + NEW_POOL + "-ticker\"")).toList();
            } finally {
                Files.deleteIfExists(dump);
                Files.deleteIfExists(dump.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The pool is open, within its capacity, with nobody waiting; it runs a new task; then it shuts down and
     * terminates (every thread ends).
     */
    static void poolWorks(PoolState s) throws Exception {
        check(!s.pool.isClosed(), "the pool is closed: " + s.pool);
        s.gate.countDown();
        // every worker idle: no task handed over earlier (a woken submitter's) is still to run and count
        until(() -> "every task ends and no submitter waits: " + s.pool, () -> s.pool.waiting() == 0
                && s.pool.running() <= s.pool.cap() && s.pool.idle() == s.pool.running()
                && (s.helper == null || !s.helper.thread().isAlive()));
        int before = s.ran.get();
        s.run(s.task);
        until(() -> "a new task runs: " + s.pool, () -> s.ran.get() == before + 1);
        terminates(s);
    }

    /** Releases the pool and waits (bounded) until it has terminated with every thread ended. */
    static void terminates(PoolState s) throws Exception {
        s.gate.countDown();
        s.pool.release();
        check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                "the pool does not terminate: " + s.pool);
        check(s.pool.running() == 0 && s.pool.isTerminated(), "terminated with workers counted: " + s.pool);
        if (s.helper != null) {
            s.helper.join();
        }
    }

    /** Reopens a closed pool and checks it works. */
    static void rebootWorks(PoolState s) throws Exception {
        s.pool.reboot();
        poolWorks(s);
    }

    /** A task handed over ran once; one refused did not run (checked once the pool has terminated). */
    static void ranIff(PoolState s, Throwable thrown, int expected) {
        int want = thrown == null ? expected : 0;
        check(s.ran.get() == want || thrown != null && s.ran.get() <= expected,
                "the task ran " + s.ran.get() + " times (" + (thrown == null ? "handed over" : "refused") + ")");
    }

    static List<Scenario<?>> all() {
        List<Scenario<?>> l = new ArrayList<>();
        for (Workers w : Workers.values()) {
            pool(l, w);
            funcPools(l, w);
            multiPools(l, w);
        }
        return l;
    }

    private static Duration noPurge() {
        return Duration.ofSeconds(60);
    }

    private static void submission(List<Scenario<?>> l, String name, Supplier<PoolState> setup,
                                   Scenario.Operation<PoolState> op, int tasks) {
        l.add(Scenario.of(name, setup::get, op, (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            until(() -> "the task ends: " + s.pool, () -> s.ran.get() >= (thrown == null ? tasks : 0)
                    && s.pool.running() <= s.pool.cap());
            int ran = s.ran.get();
            poolWorks(s);
            s.ran.set(ran);
            ranIff(s, thrown, tasks);
        }));
    }

    /**
     * A submission to a full {@link Pool} that has to wait: with {@code freed}, a helper opens the gate of the
     * held tasks once the operation parks (or returns), so a worker comes back to it; without, nothing frees a
     * worker and a timed submission times out. Whatever failed, nobody is left counted as waiting, the pool
     * works and terminates, and the task ran once if it was handed over (the timed one times out: never).
     */
    private static void waitingSubmission(List<Scenario<?>> l, String name, Workers w, boolean freed,
                                          Scenario.Operation<PoolState> op) {
        l.add(Scenario.of(name, () -> {
            PoolState s = new PoolState("Pool", w, noPurge()).full();
            if (freed) {
                s.helper = Probe.whenOperationParks("freer", s.gate::countDown);
            }
            return s;
        }, op, (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(freed || thrown != null || Boolean.FALSE.equals(s.result), "tryExecute returned " + s.result);
            if (s.helper != null) {
                s.helper.join();
            }
            until(() -> "the task ends: " + s.pool, () -> s.ran.get() >= (thrown == null && freed ? 1 : 0));
            int ran = s.ran.get();
            poolWorks(s);
            s.ran.set(ran);
            ranIff(s, thrown, freed ? 1 : 0);
        }));
    }

    private static void pool(List<Scenario<?>> l, Workers w) {
        String x = w.suffix;
        submission(l, "Pool.execute (new worker)" + x, () -> new PoolState("Pool", w, noPurge()),
                s -> s.executor.execute(s.task), 1);
        submission(l, "Pool.execute (idle worker)" + x, () -> new PoolState("Pool", w, noPurge()).withIdleWorker(),
                s -> s.executor.execute(s.task), 1);
        submission(l, "Pool.execute (idle worker, preAlloc)" + x,
                () -> new PoolState("Pool", w, noPurge(), CAP, true).withIdleWorker(), s -> s.executor.execute(s.task), 1);
        submission(l, "Pool.submit" + x, () -> new PoolState("Pool", w, noPurge()),
                s -> s.future = s.executor.submit(s.callable), 1);
        submission(l, "Pool.tryExecute" + x, () -> new PoolState("Pool", w, noPurge()).withIdleWorker(),
                s -> s.result = s.executor instanceof Pool p && p.tryExecute(s.task, Duration.ZERO), 1);
        submission(l, "Pool.invokeAll" + x, () -> new PoolState("Pool", w, noPurge()),
                s -> s.result = s.executor.invokeAll(s.two), 2);
        submission(l, "Pool.invokeAll(timeout)" + x, () -> new PoolState("Pool", w, noPurge()),
                s -> s.result = s.executor.invokeAll(s.two, Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), 2);
        waitingSubmission(l, "Pool.execute (waits for a worker)" + x, w, true, s -> s.executor.execute(s.task));
        waitingSubmission(l, "Pool.submit (waits for a worker)" + x, w, true,
                s -> s.future = s.executor.submit(s.callable));
        waitingSubmission(l, "Pool.tryExecute (waits, times out)" + x, w, false,
                s -> s.result = s.executor instanceof Pool p && p.tryExecute(s.task, s.shortWait));
        invokeAny(l, "Pool.invokeAny" + x, w, s -> s.result = s.executor.invokeAny(s.two));
        invokeAny(l, "Pool.invokeAny(timeout)" + x, w,
                s -> s.result = s.executor.invokeAny(s.two, Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        l.add(Scenario.of("Pool.tune" + x, () -> new PoolState("Pool", w, noPurge()).full().withBlockedSubmitter(),
                s -> s.pool.tune(CAP + 1), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    check(s.pool.cap() == (thrown == null ? CAP + 1 : s.pool.cap()), "cap " + s.pool.cap());
                    if (s.pool.cap() == CAP + 1) {
                        until(() -> "the blocked submitter gets the new worker", () -> !s.helper.thread().isAlive());
                    }
                    poolWorks(s);
                }));
        lifeCycle(l, "Pool", w);
        if (w == Workers.VIRTUAL) { // a pool of the user's threads starts its purger and ticker with its first worker
            l.add(Scenario.of("Pool.newPool", NewPool::new, s -> s.made = Pool.newPool(CAP, s.options),
                    (s, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        if (s.made != null) {
                            s.made.release();
                            check(s.made.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                                    "the new pool does not terminate: " + s.made);
                        }
                        until(() -> "no thread of the pool runs after newPool " + (thrown == null ? "returned"
                                : "threw " + thrown) + ": " + backgroundThreads(),
                                () -> backgroundThreads().isEmpty());
                    }));
        }
        purge(l, "Pool.purge" + x, w, false);
        purge(l, "Pool.purge (preAlloc)" + x, w, true);
        // a worker's revert grows the idle stack (16 slots at first) on its own thread: the worker ends on the
        // error with its count given back and the fast lane free
                l.add(Scenario.held("Pool revert grows the idle stack" + x, () -> {
            PoolState s = new PoolState("Pool", w, noPurge(), IDLE_STACK + 1);
            CountDownLatch first = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(IDLE_STACK);
            for (int i = 0; i < IDLE_STACK; i++) {
                s.run(() -> {
                    started.countDown();
                    try {
                        first.await(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            s.withHeldTask();
            until(() -> "the tasks run: " + s.pool, () -> started.getCount() == 0);
            first.countDown();
            until(() -> "all workers but the held one are idle: " + s.pool, () -> s.pool.idle() == IDLE_STACK
                    && s.pool.running() == IDLE_STACK + 1);
            return s;
        }, s -> s.gate.countDown(), s -> s.pool.idle() == s.pool.running(), (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            until(() -> "the held task's worker is idle or has ended: " + s.pool,
                    () -> s.pool.idle() == s.pool.running() && s.pool.running() >= IDLE_STACK);
            poolWorks(s);
        }));
        l.add(Scenario.held("Pool task on an exhausted heap" + x,
                () -> new PoolState("Pool", w, noPurge()).withIdleWorker(), s -> s.executor.execute(s.task),
                s -> s.ran.get() == 1 && s.pool.idle() == 1, (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    poolWorks(s);
                }));
    }

    /** {@code invokeAny} of two tasks on a {@link Pool}: it returns a task's result, and the pool works. */
    /**
     * The purger (held): the pool's two idle workers expire while the heap is exhausted; whatever failed, they
     * are purged, a new worker is purged in turn, and the pool terminates. With {@code preAlloc}, on the ring of
     * idle workers ({@code LoopQueue}) instead of the stack.
     */
    private static void purge(List<Scenario<?>> l, String name, Workers w, boolean preAlloc) {
        l.add(Scenario.held(name, () -> {
            PoolState s = new PoolState("Pool", w, SHORT_EXPIRY, CAP, preAlloc).withIdleWorker();
            s.full();
            s.gate.countDown();
            // On a loaded machine both may expire before this poll sees them idle: the run then purges them with
            // the heap free, and the check holds all the same.
            until(() -> "both workers are idle or purged: " + s.pool, () -> s.pool.idle() == CAP || s.pool.running() == 0);
            return s;
        }, s -> { }, s -> s.pool.idle() == 0, (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            until(() -> "the idle workers are purged: " + s.pool, () -> s.pool.idle() == 0 && s.pool.running() == 0);
            s.run(s.task);
            until(() -> "a new worker is purged in turn: " + s.pool, () -> s.ran.get() == 1 && s.pool.running() == 0);
            terminates(s);
        }));
    }

    private static void invokeAny(List<Scenario<?>> l, String name, Workers w, Scenario.Operation<PoolState> op) {
        l.add(Scenario.of(name, () -> new PoolState("Pool", w, noPurge()), op, (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            check(thrown != null || s.result == s, "invokeAny returned " + s.result);
            poolWorks(s);
        }));
    }

    /** release, shutdown, shutdownNow, close, reboot and awaitTermination of a pool of {@code kind}. */
    private static void lifeCycle(List<Scenario<?>> l, String kind, Workers w) {
        String x = w.suffix;
        l.add(Scenario.of(kind + ".release" + x,
                () -> new PoolState(kind, w, noPurge()).full().withBlockedSubmitter(), s -> s.pool.release(),
                (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    if (thrown != null && !s.pool.isClosed()) {
                        s.pool.release();
                    }
                    check(s.pool.isClosed(), "not closed");
                    s.helper.join();
                    check(s.rejected instanceof PoolClosedException || s.rejected instanceof OutOfMemoryError,
                            "the blocked submitter was not rejected with PoolClosedException but " + s.rejected);
                    s.helper = null;
                    s.gate.countDown();
                    check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                            "does not terminate: " + s.pool);
                    rebootWorks(s);
                }));
        if (!kind.endsWith("WithFunc")) {
            l.add(Scenario.of(kind + ".shutdown" + x, () -> new PoolState(kind, w, noPurge()).withIdleWorker(),
                    s -> s.executor.shutdown(), (s, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        if (thrown != null) {
                            s.executor.shutdown();
                        }
                        check(s.executor.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                                "does not terminate: " + s.pool);
                        rebootWorks(s);
                    }));
            l.add(Scenario.of(kind + ".shutdownNow" + x, () -> new PoolState(kind, w, noPurge()).withHeldTask(),
                    s -> s.result = s.executor.shutdownNow(), (s, thrown) -> {
                        noneOrOutOfMemory(thrown);
                        if (thrown != null) {
                            s.executor.shutdownNow();
                        }
                        until(() -> "the running task is interrupted", () -> s.interrupted.get() == 1);
                        check(s.executor.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                                "does not terminate: " + s.pool);
                        rebootWorks(s);
                        check(s.interrupted.get() == 1, "a task after reboot was interrupted");
                    }));
        }
        l.add(Scenario.of(kind + ".close" + x, () -> {
            PoolState s = new PoolState(kind, w, noPurge()).withHeldTask();
            s.helper = Probe.whenOperationParks("opener", s.gate::countDown);
            return s;
        }, s -> s.pool.close(), (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            s.helper.join();
            s.helper = null;
            if (thrown != null) {
                s.pool.release();
            }
            check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                    "does not terminate: " + s.pool);
            rebootWorks(s);
        }));
        l.add(Scenario.of(kind + ".reboot" + x, () -> {
            PoolState s = new PoolState(kind, w, SHORT_EXPIRY).full(); // every sub-pool has started a worker
            s.gate.countDown();
            s.pool.release();
            check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "setup: not terminated");
            return s;
        }, s -> s.pool.reboot(), (s, thrown) -> {
            noneOrOutOfMemory(thrown);
            if (s.pool.isClosed()) { // the reboot did not happen: the pool is closed as a whole, so a release
                s.pool.release();    // ends it, and a reboot is still possible
                check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                        "closed after a failed reboot, released, does not terminate: " + s.pool);
                s.pool.reboot();
            }
            check(!s.pool.isClosed(), "closed after a second reboot");
            s.run(s.task);
            until(() -> "the task runs and its idle worker is purged (the purger runs): " + s.pool,
                    () -> s.ran.get() == 1 && s.pool.running() == 0);
            terminates(s);
        }));
        l.add(Scenario.of(kind + ".releaseTimeout (interrupted while waiting)" + x, () -> {
            PoolState s = new PoolState(kind, w, noPurge()).withHeldTask();
            s.runner = SweepRunner.current().thread();
            s.helper = Probe.onlyIfOperationParks("interrupter", s.runner::interrupt);
            return s;
        }, s -> {
            Thread.interrupted(); // an interrupter of an earlier run may have come late: this run's comes at its park
            try {
                s.pool.releaseTimeout(s.releaseWait); // the held task outlasts it: it waits on past the interrupt
            } catch (java.util.concurrent.TimeoutException expected) {
                s.result = expected; // the outcome of a run with memory enough
            } finally {
                s.interruptedAfter = Thread.interrupted(); // allocates nothing
            }
        }, (s, thrown) -> {
            s.helper.join();
            boolean interruptSent = s.helper.acted();
            s.helper = null;
            noneOrOutOfMemory(thrown);
            check(thrown != null || s.result instanceof java.util.concurrent.TimeoutException,
                    "releaseTimeout returned normally while a task still ran");
            // not interruptible: it keeps an interrupt that comes while it waits, also when it throws (one that
            // came only after the operation had ended is still in the runner's status)
            check(s.interruptedAfter || !interruptSent || s.runner.isInterrupted(), kind + ".releaseTimeout threw " + thrown
                    + " and the interrupt that came while it waited was lost");
            if (!s.pool.isClosed()) {
                s.pool.release();
            }
            s.gate.countDown();
            check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                    "does not terminate: " + s.pool);
            rebootWorks(s);
        }).failingAnAllocation());
        l.add(Scenario.of(kind + ".awaitTermination" + x, () -> {
            PoolState s = new PoolState(kind, w, noPurge()).withHeldTask();
            s.pool.release();
            s.helper = Probe.whenOperationParks("opener", s.gate::countDown);
            return s;
        }, s -> s.result = s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    s.helper.join();
                    s.helper = null;
                    check(thrown != null || Boolean.TRUE.equals(s.result), "awaitTermination returned " + s.result);
                    check(s.pool.awaitTermination(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                            "does not terminate: " + s.pool);
                    rebootWorks(s);
                }));
    }

    private static void funcPools(List<Scenario<?>> l, Workers w) {
        String x = w.suffix;
        submission(l, "PoolWithFunc.invoke (new worker)" + x, () -> new PoolState("PoolWithFunc", w, noPurge()),
                s -> s.func.invoke(s.task), 1);
        submission(l, "PoolWithFunc.tryInvoke (idle worker)" + x,
                () -> new PoolState("PoolWithFunc", w, noPurge()).withIdleWorker(),
                s -> s.result = s.func.tryInvoke(s.task, Duration.ZERO), 1);
        submission(l, "MultiPoolWithFunc.invoke" + x, () -> new PoolState("MultiPoolWithFunc", w, noPurge()),
                s -> s.multiFunc.invoke(s.task), 1);
        l.add(Scenario.of("PoolWithFunc.release" + x,
                () -> new PoolState("PoolWithFunc", w, noPurge()).full().withBlockedSubmitter(),
                s -> s.pool.release(), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    if (thrown != null) {
                        s.pool.release();
                    }
                    s.helper.join();
                    check(s.rejected instanceof PoolClosedException || s.rejected instanceof OutOfMemoryError,
                            "the blocked caller got " + s.rejected);
                    s.helper = null;
                    rebootWorks(s);
                }));
    }

    private static void multiPools(List<Scenario<?>> l, Workers w) {
        String x = w.suffix;
        submission(l, "MultiPool.execute" + x, () -> new PoolState("MultiPool", w, noPurge()),
                s -> s.executor.execute(s.task), 1);
        submission(l, "MultiPool.submit" + x, () -> new PoolState("MultiPool", w, noPurge()),
                s -> s.future = s.executor.submit(s.callable), 1);
        l.add(Scenario.of("MultiPool.tune" + x, () -> new PoolState("MultiPool", w, noPurge()),
                s -> s.pool.tune(CAP + 1), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    check(s.pool.cap() == 2 * (CAP + 1) || thrown != null && s.pool.cap() == 2 * CAP,
                            "cap " + s.pool.cap() + " after tune" + (thrown == null ? "" : " threw"));
                    poolWorks(s);
                }));
        lifeCycle(l, "MultiPool", w);
    }
}
