package io.ants4j.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Waits for a collection of tasks to finish: the port of Go's {@code sync.WaitGroup}. The
 * coordinating thread calls {@link #add} with the number of tasks; each task calls {@link #done}
 * when it finishes; {@link #await} blocks until the count is zero. {@link #go} does all three
 * bookkeeping steps for a task.
 *
 * <pre>{@code
 * WaitGroup wg = new WaitGroup();
 * for (String url : urls) {
 *     wg.go(() -> fetch(url));
 * }
 * wg.await();
 * }</pre>
 *
 * <p>Go's rules apply. Calls of {@code add} with a positive delta that start while the count is
 * zero must happen before {@code await}. A group may be reused, but the {@code add} calls of the
 * next round must happen after every {@code await} of the previous round has returned. Misuse
 * that the group detects throws {@link IllegalStateException} (Go panics):
 * <ul>
 *   <li>{@code "negative WaitGroup counter"}: more {@code done} than {@code add}; the counter is
 *       left as it was;
 *   <li>{@code "WaitGroup counter overflow"}: the counter would pass {@link Integer#MAX_VALUE};
 *       the counter is left as it was;
 *   <li>{@code "WaitGroup misuse: add called concurrently with await"};
 *   <li>{@code "WaitGroup is reused before previous await has returned"}.
 * </ul>
 * Detection of the last two is best-effort, as in Go, and the group is unusable after them.
 *
 * <p>A waiter that is interrupted or times out leaves the group: it no longer counts as a waiter
 * and consumes no wake-up meant for another. If the count reaches zero before it could leave, its
 * wait succeeded: {@code await(timeout)} returns {@code true}, and {@code await()} returns normally
 * with the interrupt status set.
 *
 * <p><b>Memory consistency effects:</b> actions in a thread prior to calling {@code done()} (or
 * {@code add} with a negative delta) <i>happen-before</i> the return of every {@code await} that
 * that call or a later one releases, and actions before {@code go} happen-before the task runs.
 */
public final class WaitGroup {
    /*
     * Implementation notes (Go's sync.WaitGroup, seed 004).
     *
     * One 64-bit word: the counter in the high 32 bits (signed), the waiter count in the low 32.
     * add(delta) is a CAS loop that checks the new counter before it publishes it, so a rejected
     * add leaves the word as it was and no thread ever reads a negative or wrapped counter. A
     * waiter reads the word: counter 0 means return at once (the fast path: one volatile read);
     * otherwise it CASes the waiter count up and parks on a Sema. The add that brings the counter to 0 while waiters are registered owns the
     * release: no waiter can register (the counter is 0) and none can leave (leaving CASes only a
     * word with a non-zero counter), so it re-reads the word to detect a racing add, stores 0 and
     * releases one permit per waiter. Permits are counted, so a waiter that registered but has not
     * parked yet finds its permit banked.
     *
     * Before it registers, a waiter spin-waits a moment while the counter is about to reach zero,
     * as Phaser does before it blocks: when the last tasks are finishing on other CPUs, about a
     * thousand spin-waits (tens of microseconds) cost less than parking and being woken. It spins
     * SPINS_PER_DONE times, and again as long for each fall of the counter below the number of
     * CPUs (at most that many times), then registers; a counter seen at zero returns as the fast
     * path does. One CPU: no spinning. Measured on the benchmarks' fork-join of 8 tasks handed to
     * 2 threads: 25 us without spinning, 21.6 with 2^8 spins, 19.4 with 2^10; Phaser 17.7-20.3.
     *
     * A waiter giving up CASes the waiter count down if the counter is still non-zero. If the
     * counter is 0, the releaser has already counted it: it takes its permit, uninterruptibly (it
     * is already released or about to be), and reports success, so no other waiter is short one.
     *
     * Happens-before: the releasing add is a volatile read-modify-write that follows every other
     * add/done in the word's modification order, and Sema.release -> acquire carries it to the
     * waiter; a waiter that returns on the fast path read the word with a volatile read.
     */

    private static final VarHandle STATE;
    private static final VarHandle SEMA;

    private static final int NCPU = Runtime.getRuntime().availableProcessors();
    /** Spin-waits of a waiter before it parks, and again per fall of the counter near zero (tens of microseconds). */
    private static final int SPINS_PER_DONE = NCPU < 2 ? 0 : 1 << 10;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(WaitGroup.class, "state", long.class);
            SEMA = lookup.findVarHandle(WaitGroup.class, "sema", Sema.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;

    /**
     * Created by the first waiter before it registers, so a group nobody blocks on allocates no
     * semaphore; whoever sees a registered waiter sees the semaphore.
     */
    private Sema sema;

    /** Creates a group whose counter is zero. */
    public WaitGroup() {
    }

    /**
     * Adds {@code delta}, which may be negative, to the counter. If the counter becomes zero,
     * every thread blocked in {@code await} is released.
     *
     * @param delta the amount to add
     * @throws IllegalStateException if the counter would become negative or exceed
     *     {@link Integer#MAX_VALUE} (the counter is then unchanged), or on detected misuse (see
     *     the class documentation)
     */
    public void add(int delta) {
        if (delta == 0) {
            return;
        }
        long increment = (long) delta << 32;
        long previous;
        long counter;
        do {
            previous = (long) STATE.getVolatile(this);
            counter = (long) counter(previous) + delta;
            if (counter < 0L || counter > Integer.MAX_VALUE) {
                throw new IllegalStateException(counter < 0L ? "negative WaitGroup counter" : "WaitGroup counter overflow");
            }
        } while (!STATE.compareAndSet(this, previous, previous + increment));
        long current = previous + increment;
        int waiters = waiters(current);
        if (waiters != 0 && delta > 0 && counter == delta) {
            throw new IllegalStateException("WaitGroup misuse: add called concurrently with await");
        }
        if (counter > 0L || waiters == 0) {
            return;
        }
        if ((long) STATE.getVolatile(this) != current) {
            throw new IllegalStateException("WaitGroup misuse: add called concurrently with await");
        }
        STATE.setVolatile(this, 0L);
        ((Sema) SEMA.getAcquire(this)).release(waiters);
    }

    /**
     * Decrements the counter by one.
     *
     * @throws IllegalStateException if the counter is already zero
     */
    public void done() {
        add(-1);
    }

    /**
     * Blocks until the counter is zero.
     *
     * @throws InterruptedException if the thread is interrupted on entry or while waiting (it
     *     has then left the group)
     * @throws IllegalStateException if the group is reused before this await returned
     */
    public void await() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        await(false, 0L);
    }

    /**
     * Blocks until the counter is zero or the timeout elapses.
     *
     * @param timeout the maximum time to wait
     * @param unit the unit of {@code timeout}
     * @return {@code true} if the counter reached zero, {@code false} if the timeout elapsed first
     * @throws InterruptedException if the thread is interrupted on entry or while waiting
     * @throws NullPointerException if {@code unit} is null
     * @throws IllegalStateException if the group is reused before this await returned
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return await(true, deadline);
    }

    /**
     * Blocks until the counter is zero, waiting through interrupts; the interrupt status is set
     * again when it returns.
     *
     * @throws IllegalStateException if the group is reused before this await returned
     */
    public void awaitUninterruptibly() {
        Sema sema = register();
        if (sema != null) {
            sema.acquireUninterruptibly();
            checkNotReused();
        }
    }

    /**
     * Runs {@code task} on a new virtual thread, counted by this group: {@code add(1)} now,
     * {@code done()} when the task returns or throws. A throwable escaping the task goes to the
     * thread's uncaught exception handler.
     *
     * @param task the task to run
     * @throws NullPointerException if {@code task} is null
     */
    public void go(Runnable task) {
        go(Thread.ofVirtual()::start, task);
    }

    /**
     * Runs {@code task} on {@code executor}, counted by this group: {@code add(1)} now,
     * {@code done()} when the task returns or throws. If the executor throws (for instance
     * {@link java.util.concurrent.RejectedExecutionException}), the count is restored and the
     * exception propagates.
     *
     * @param executor where to run the task
     * @param task the task to run
     * @throws NullPointerException if {@code executor} or {@code task} is null
     */
    public void go(Executor executor, Runnable task) {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(task, "task");
        add(1);
        CountedTask counted = new CountedTask(task);
        try {
            executor.execute(counted);
        } catch (RuntimeException | Error e) {
            if (!counted.started) { // a task that started calls done() itself
                done();
            }
            throw e;
        }
    }

    /**
     * Returns the current counter: tasks added and not yet done. A snapshot for monitoring.
     *
     * @return the counter, never negative
     */
    public int count() {
        return counter((long) STATE.getVolatile(this));
    }

    /**
     * Returns a string identifying this group and its counter.
     *
     * @return e.g. {@code "WaitGroup@1b6d3586[count=3, waiters=1]"}
     */
    @Override
    public String toString() {
        long s = (long) STATE.getVolatile(this);
        return super.toString() + "[count=" + counter(s) + ", waiters=" + waiters(s) + "]";
    }

    private boolean await(boolean timed, long deadline) throws InterruptedException {
        Sema sema = register();
        if (sema == null) {
            return true;
        }
        boolean acquired;
        try {
            acquired = sema.acquire(timed, deadline);
        } catch (InterruptedException e) {
            if (leave(sema)) {
                throw e;
            }
            Thread.currentThread().interrupt();
            acquired = true;
        }
        if (!acquired && leave(sema)) {
            return false;
        }
        checkNotReused();
        return true;
    }

    /** Counts the caller as a waiter and returns the semaphore to park on; {@code null} if the counter is zero. */
    private Sema register() {
        if (reachedZeroWhileSpinning()) {
            return null;
        }
        Sema sema = null;
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            if (counter(s) == 0) {
                return null;
            }
            if (sema == null) {
                sema = sema();
            }
            if (STATE.compareAndSet(this, s, s + 1L)) {
                return sema;
            }
        }
    }

    /** Spins while the counter is about to reach zero (see the implementation notes); true if it did. */
    private boolean reachedZeroWhileSpinning() {
        int last = counter((long) STATE.getVolatile(this));
        for (int spins = SPINS_PER_DONE, rounds = NCPU; last != 0;) {
            if (--spins < 0) {
                return false;
            }
            Thread.onSpinWait();
            int c = counter((long) STATE.getVolatile(this));
            if (c < last && c < NCPU && --rounds >= 0) {
                spins += SPINS_PER_DONE;
            }
            last = c;
        }
        return true;
    }

    private Sema sema() {
        Sema sema = (Sema) SEMA.getAcquire(this);
        if (sema == null) {
            Sema created = new Sema();
            Sema witness = (Sema) SEMA.compareAndExchangeRelease(this, null, created);
            sema = witness == null ? created : witness;
        }
        return sema;
    }

    /**
     * Un-counts a waiter that gave up; {@code false} if the counter reached zero first, in which
     * case the waiter has been released and has now taken its permit.
     */
    private boolean leave(Sema sema) {
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            if (counter(s) == 0) {
                sema.acquireUninterruptibly();
                return false;
            }
            if (STATE.compareAndSet(this, s, s - 1L)) {
                return true;
            }
        }
    }

    private void checkNotReused() {
        if ((long) STATE.getVolatile(this) != 0L) {
            throw new IllegalStateException("WaitGroup is reused before previous await has returned");
        }
    }

    /** A task that calls {@link #done()} when it ends; knows whether it has started. */
    private final class CountedTask implements Runnable {
        private final Runnable task;
        private volatile boolean started;

        CountedTask(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            started = true;
            try {
                task.run();
            } finally {
                done();
            }
        }
    }

    private static int counter(long state) {
        return (int) (state >> 32);
    }

    private static int waiters(long state) {
        return (int) state;
    }
}
