package io.ants4j.pool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The immutable settings of a pool: ants' {@code Options}, built with a {@link Builder}.
 *
 * <pre>{@code
 * PoolOptions options = PoolOptions.builder()
 *         .expiryDuration(Duration.ofSeconds(10))
 *         .maxBlockingTasks(1_000)
 *         .panicHandler(t -> metrics.taskFailed(t))
 *         .build();
 * try (Pool pool = Pool.newPool(10_000, options)) { ... }
 * }</pre>
 *
 * <table class="striped">
 * <caption>Options and their defaults</caption>
 * <thead><tr><th>option</th><th>default</th><th>meaning</th></tr></thead>
 * <tbody>
 * <tr><td>{@link #expiryDuration()}</td><td>1 s</td><td>how long a worker may sit idle before the purger
 *     retires it, and how often the purger runs; {@link Duration#ZERO} means the default (unless purge is
 *     disabled)</td></tr>
 * <tr><td>{@link #preAlloc()}</td><td>false</td><td>keep idle workers in a ring of {@code capacity} slots
 *     allocated up front instead of a growing stack (needs a bounded pool; such a pool cannot be tuned); a task
 *     then goes to the worker idle the longest on it, first in first out as ants' loop queue, instead of the most
 *     recently idle one (a worker spinning in the fast lane goes before either)</td></tr>
 * <tr><td>{@link #maxBlockingTasks()}</td><td>0</td><td>at most this many submitters may block waiting for a
 *     worker; more are rejected with {@link PoolOverloadException}. {@code 0} means no limit</td></tr>
 * <tr><td>{@link #nonblocking()}</td><td>false</td><td>never block a submitter: reject at once with
 *     {@link PoolOverloadException} when no worker is free</td></tr>
 * <tr><td>{@link #panicHandler()}</td><td>null</td><td>receives whatever a task throws; {@code null} means the
 *     {@link #logger()} logs it at {@code ERROR}</td></tr>
 * <tr><td>{@link #logger()}</td><td>{@code System.getLogger("io.ants4j.pool")}</td><td>where failures
 *     are logged</td></tr>
 * <tr><td>{@link #disablePurge()}</td><td>false</td><td>keep idle workers forever</td></tr>
 * <tr><td>{@link #name()}</td><td>{@code ants4j-pool-N}</td><td>the pool's name, in its threads' names, its
 *     {@code toString}, its JFR events and its metrics; {@code N} counts up from 1 in this JVM, one number for
 *     each pool made without a name (a construction that throws may use one up)</td></tr>
 * <tr><td>{@link #threadFactory()}</td><td>virtual threads named {@code <name>-worker-<k>}</td><td>makes the
 *     worker threads (and then names them); pass a platform-thread factory to run workers on platform
 *     threads, e.g. for tasks that spin on {@code Thread.yield()} (see {@link Pool})</td></tr>
 * </tbody>
 * </table>
 *
 * <p>Instances are immutable and thread-safe; one may configure any number of pools.
 */
public final class PoolOptions {

    /** ants' {@code DefaultCleanIntervalTime}. */
    static final Duration DEFAULT_EXPIRY = Duration.ofSeconds(1);

    private static final PoolOptions DEFAULTS = new Builder().build();

    /** The number of the last pool that got a default name. */
    private static final AtomicInteger POOLS = new AtomicInteger();

    private final Duration expiryDuration;
    private final boolean preAlloc;
    private final int maxBlockingTasks;
    private final boolean nonblocking;
    private final Consumer<? super Throwable> panicHandler;
    private final System.Logger logger;
    private final boolean disablePurge;
    private final ThreadFactory threadFactory;
    private final String name;

    private PoolOptions(Builder b) {
        this.expiryDuration = b.expiryDuration;
        this.preAlloc = b.preAlloc;
        this.maxBlockingTasks = b.maxBlockingTasks;
        this.nonblocking = b.nonblocking;
        this.panicHandler = b.panicHandler;
        this.logger = b.logger;
        this.disablePurge = b.disablePurge;
        this.threadFactory = b.threadFactory;
        this.name = b.name;
    }

    /**
     * Returns a new builder holding the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the default options (shared, immutable).
     *
     * @return the default options
     */
    public static PoolOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Returns the idle time after which the purger retires a worker, which is also the purger's period. Idle
     * times are measured with a clock refreshed every {@code tick = min(500 ms, expiry / 10)} (at least 1 ms),
     * so a worker idle for {@code expiry - tick} may be retired; none is retired sooner, also after the purger
     * could not run for a while (every carrier thread held by CPU-bound tasks).
     *
     * @return the expiry duration, positive unless purge is disabled
     */
    public Duration expiryDuration() {
        return expiryDuration;
    }

    /**
     * Returns whether idle workers live in a ring of {@code capacity} slots allocated up front.
     *
     * @return whether the worker queue is pre-allocated
     */
    public boolean preAlloc() {
        return preAlloc;
    }

    /**
     * Returns the most submitters allowed to block at once, {@code 0} meaning no limit.
     *
     * @return the limit on blocked submitters
     */
    public int maxBlockingTasks() {
        return maxBlockingTasks;
    }

    /**
     * Returns whether submitters are rejected instead of blocked when no worker is free.
     *
     * @return whether the pool is non-blocking
     */
    public boolean nonblocking() {
        return nonblocking;
    }

    /**
     * Returns the handler of whatever a task throws, or {@code null} to log it.
     *
     * @return the panic handler, or {@code null}
     */
    public Consumer<? super Throwable> panicHandler() {
        return panicHandler;
    }

    /**
     * Returns the logger of task failures that no panic handler takes.
     *
     * @return the logger
     */
    public System.Logger logger() {
        return logger;
    }

    /**
     * Returns whether idle workers are kept forever.
     *
     * @return whether the purger is disabled
     */
    public boolean disablePurge() {
        return disablePurge;
    }

    /**
     * Returns the factory of worker threads set with {@link Builder#threadFactory}, or {@code null}: each pool
     * then runs its workers on virtual threads named {@code <name>-worker-<k>}, {@code k} counting that pool's
     * workers from 1.
     *
     * @return the thread factory, or {@code null}
     */
    public ThreadFactory threadFactory() {
        return threadFactory;
    }

    /**
     * Returns the name set with {@link Builder#name}, or {@code null}: each pool made with these options then
     * gets a name of its own, {@code ants4j-pool-N}, {@code N} counting up from 1 the pools of this JVM named so
     * (a construction that throws may use a number up, so the numbers need not follow one another).
     *
     * @return the pool name, or {@code null}
     */
    public String name() {
        return name;
    }

    /** The name of a pool made now with these options: the one set, or the next {@code ants4j-pool-N}. */
    String nameOfNewPool() {
        return name != null ? name : "ants4j-pool-" + POOLS.incrementAndGet();
    }

    @Override
    public String toString() {
        return "PoolOptions[expiryDuration=" + expiryDuration + ", preAlloc=" + preAlloc
                + ", maxBlockingTasks=" + maxBlockingTasks + ", nonblocking=" + nonblocking
                + ", panicHandler=" + (panicHandler == null ? "log" : "set")
                + ", logger=" + logger.getName() + ", disablePurge=" + disablePurge
                + ", threadFactory=" + (threadFactory == null ? "virtual" : threadFactory)
                + ", name=" + (name == null ? "ants4j-pool-N" : name) + ']';
    }

    /**
     * Builds {@link PoolOptions}: one setter per option, named like its getter. Not thread-safe.
     * Setters reject {@code null} with {@link NullPointerException} (except {@link #panicHandler}, where
     * {@code null} restores the default) and bad numbers with {@link IllegalArgumentException}.
     */
    public static final class Builder {
        private Duration expiryDuration = DEFAULT_EXPIRY;
        private boolean preAlloc;
        private int maxBlockingTasks;
        private boolean nonblocking;
        private Consumer<? super Throwable> panicHandler;
        private System.Logger logger;
        private boolean disablePurge;
        private ThreadFactory threadFactory;
        private String name;

        private Builder() {
        }

        /**
         * Sets how long a worker may sit idle before it is retired (and the purger's period).
         *
         * @param d the expiry; {@link Duration#ZERO} means the default of 1 s unless purge is disabled
         * @return this builder
         * @throws NullPointerException     if {@code d} is null
         * @throws IllegalArgumentException if {@code d} is negative
         */
        public Builder expiryDuration(Duration d) {
            Objects.requireNonNull(d, "expiryDuration");
            if (d.isNegative()) {
                throw new IllegalArgumentException("expiryDuration must not be negative: " + d);
            }
            this.expiryDuration = d;
            return this;
        }

        /**
         * Sets whether idle workers live in a ring of {@code capacity} slots allocated up front.
         *
         * @param b whether to pre-allocate
         * @return this builder
         */
        public Builder preAlloc(boolean b) {
            this.preAlloc = b;
            return this;
        }

        /**
         * Sets the most submitters allowed to block at once.
         *
         * @param n the limit, {@code 0} for none
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is negative
         */
        public Builder maxBlockingTasks(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("maxBlockingTasks must not be negative: " + n);
            }
            this.maxBlockingTasks = n;
            return this;
        }

        /**
         * Sets whether submitters are rejected instead of blocked when no worker is free.
         *
         * @param b whether the pool is non-blocking
         * @return this builder
         */
        public Builder nonblocking(boolean b) {
            this.nonblocking = b;
            return this;
        }

        /**
         * Sets the handler of whatever a task throws; it runs on the worker thread that ran the task.
         *
         * @param h the handler, or {@code null} to log failures
         * @return this builder
         */
        public Builder panicHandler(Consumer<? super Throwable> h) {
            this.panicHandler = h;
            return this;
        }

        /**
         * Sets the logger of task failures that no panic handler takes.
         *
         * @param l the logger
         * @return this builder
         * @throws NullPointerException if {@code l} is null
         */
        public Builder logger(System.Logger l) {
            this.logger = Objects.requireNonNull(l, "logger");
            return this;
        }

        /**
         * Sets whether idle workers are kept forever.
         *
         * @param b whether to disable the purger
         * @return this builder
         */
        public Builder disablePurge(boolean b) {
            this.disablePurge = b;
            return this;
        }

        /**
         * Sets the factory of worker threads. The pool starts each thread the factory returns, with one of its
         * workers as the thread's task; a factory that throws a {@code RuntimeException}, returns {@code null},
         * or returns a thread already started makes that submission fail with
         * {@link java.util.concurrent.RejectedExecutionException} (the cause: what it threw, or
         * {@code Thread.start()}'s {@link IllegalThreadStateException}) and gives its worker slot back; the
         * worker never runs in a thread so returned, unless it had begun to run there before {@code Thread.start()}
         * threw, which makes that thread the worker's and the submission succeed. An {@code Error} from the factory
         * or from {@code Thread.start()} propagates as it is.
         *
         * @param f the factory
         * @return this builder
         * @throws NullPointerException if {@code f} is null
         */
        public Builder threadFactory(ThreadFactory f) {
            this.threadFactory = Objects.requireNonNull(f, "threadFactory");
            return this;
        }

        /**
         * Sets the pool's name: its worker threads are called {@code <name>-worker-<k>} when the pool makes
         * them (with a {@linkplain #threadFactory thread factory}, the factory names them, or leaves them
         * unnamed), its background threads
         * {@code <name>-purger} and {@code <name>-ticker}, the sub-pool {@code i} of a multi-pool
         * {@code <name>-<i>}; its {@code toString}, JFR events and metrics carry it. Names need not be unique.
         *
         * @param name the name
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is empty
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isEmpty()) {
                throw new IllegalArgumentException("name must not be empty");
            }
            this.name = name;
            return this;
        }

        /**
         * Returns the options set so far, with defaults for the rest.
         *
         * @return new immutable options
         */
        public PoolOptions build() {
            Builder b = new Builder();
            b.expiryDuration = expiryDuration.isZero() && !disablePurge ? DEFAULT_EXPIRY : expiryDuration;
            b.preAlloc = preAlloc;
            b.maxBlockingTasks = maxBlockingTasks;
            b.nonblocking = nonblocking;
            b.panicHandler = panicHandler;
            b.logger = logger != null ? logger : System.getLogger("io.ants4j.pool");
            b.disablePurge = disablePurge;
            b.threadFactory = threadFactory;
            b.name = name;
            return new PoolOptions(b);
        }
    }
}
