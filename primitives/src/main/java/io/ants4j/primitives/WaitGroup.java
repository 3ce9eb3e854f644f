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
 * zero must happen before {@code await}: an {@code await} that finds the count at zero returns at
 * once. A waiter returns when the count reaches zero in the round it waits in, so a group may be
 * reused at once: the {@code add} of the next round may come before every waiter of the previous
 * one has returned, and does not hold them back. Misuse throws {@link IllegalStateException} (Go
 * panics) and leaves the group as it was:
 * <ul>
 *   <li>{@code "negative WaitGroup counter"}: more {@code done} than {@code add};
 *   <li>{@code "WaitGroup counter overflow"}: the counter would pass {@link Integer#MAX_VALUE}.
 * </ul>
 *
 * <p>A waiter that is interrupted or times out leaves the group: it no longer counts as a waiter
 * and consumes no wake-up meant for another. If the count reached zero before it could leave, its
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
     * waiter reads the word: counter 0 means return at once (the fast path: one volatile read, no
     * lock). done() with nobody waiting is one CAS, no lock.
     *
     * Everything else is decided under the lock of a WaitQueue: registering (CAS the waiter count
     * up while the counter is non-zero, and enqueue a node, allocated before the lock, in the same
     * critical section, which therefore cannot fail half-way), leaving
     * (CAS it down and withdraw the node) and releasing (store 0 and grant every queued node). So
     * whenever the lock is free, waiters(word) is the number of queued nodes, and a node is either
     * granted by the release of its own round or withdrawn, never both. Wake-ups go to nodes, not
     * to a pool of permits, so none can cross into a later round.
     *
     * A round ends when an add brings the counter to 0 while waiters are counted. The word is then
     * (0, n) until some thread takes the lock and releases, and nothing else can change it: a
     * registrant sees counter 0 and returns, a leaver needs the lock, a negative add is rejected,
     * and a positive add (the next round) must not count into the ended round. Any thread that
     * meets (0, n) completes the release itself instead of waiting for the thread whose add ended
     * the round (it may be descheduled): the positive add does so before it retries, and so does a
     * leaver that finds the counter 0 under the lock, whose node is among those granted, so its
     * wait succeeds. Releasing is therefore idempotent: under the lock, whoever reads (0, n) with
     * n > 0 stores 0 and grants all n nodes, and the round's own adder, coming later, finds nothing
     * to do. Whoever reads (0, n) has read the write of the add that ended the round, so that add
     * happens-before the grant (a release store of the node's status, read with acquire by the
     * waiter). A timed-out or interrupted waiter thus never touches a word it no longer counts in:
     * the next round is safe from the previous one however early its add comes.
     *
     * Before it registers, a waiter spin-waits a moment while the counter is about to reach zero,
     * as Phaser does before it blocks: when the last tasks are finishing on other CPUs, about a
     * thousand spin-waits (tens of microseconds) cost less than parking and being woken. It spins
     * SPINS_PER_DONE times, and again as long for each fall of the counter below the number of
     * CPUs (at most that many times), then registers; a counter seen at zero returns as the fast
     * path does. One CPU: no spinning. Measured on the benchmarks' fork-join of 8 tasks handed to
     * 2 threads: 25 us without spinning, 21.6 with 2^8 spins, 19.4 with 2^10; Phaser 17.7-20.3.
     *
     * go() allocates the task it hands the executor before add(1), so an OutOfMemoryError leaves
     * the count alone. An executor may throw from execute and still run the task later (the JDK's
     * ThreadPoolExecutor does when it has queued the task and then fails to add a worker), so
     * go()'s undo and the task's run race for one claim (a CAS): the winner counts the task down,
     * the loser does nothing. A failing task is reported before done(), as Go 1.26 does
     * (golang/go#76126; Go's panic ends the program, so Go skips Done; here the program goes on,
     * so the count must still drop, but only after the report).
     *
     * The first run in the JVM of a VarHandle call site links it, which allocates, and the release
     * of a round and a task's claim run theirs after the count changed: class initialization runs
     * them once on a throwaway group (linkStateChanges), before any group has state, or, if that ran
     * out of memory, the first constructor does (CallSiteLinking).
     *
     * Happens-before: each add/done is a volatile read-modify-write of the word, so an add reads
     * the effects of all earlier ones; a waiter on the fast path reads the word, a released one
     * reads its node's status, both after the write that ended the round.
     */

    /** Status of a waiter whose round has ended. */
    private static final int GRANTED = 1;

    private static final VarHandle STATE;
    private static final VarHandle QUEUE;

    private static final int NCPU = Runtime.getRuntime().availableProcessors();
    /** Spin-waits of a waiter before it parks, and again per fall of the counter near zero (tens of microseconds). */
    private static final int SPINS_PER_DONE = NCPU < 2 ? 0 : 1 << 10;

    /** Links the call sites before any group has state (see {@link CallSiteLinking}). */
    private static final CallSiteLinking LINKING = new CallSiteLinking() {
        @Override
        void runEachCallSite() {
            linkStateChanges();
        }
    };

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(WaitGroup.class, "state", long.class);
            QUEUE = lookup.findVarHandle(WaitGroup.class, "queue", WaitQueue.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        LINKING.attempt();
    }

    /**
     * Runs once, on a throwaway group, the paths that change a group's state: a task of {@link #go}
     * claimed and counted down, a waiter registered, and the release of the round it waits for. The
     * first run of each {@code VarHandle} call site in the JVM links it, which allocates: were the
     * first release on an exhausted heap, its {@code OutOfMemoryError} would leave the round ended
     * and its waiters parked for good; were the first task's claim, the task would stay counted.
     */
    private static void linkStateChanges() {
        WaitGroup wg = new WaitGroup();
        wg.go(Runnable::run, () -> { });
        wg.add(1);
        wg.register(); // the calling thread's node: granted by the release, not unparked
        wg.done();
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;

    /**
     * Created by the first waiter before it registers, so a group nobody blocks on allocates no
     * queue; whoever reads a word with waiters counted sees the queue.
     */
    private WaitQueue queue;

    /** Creates a group whose counter is zero. */
    public WaitGroup() {
        LINKING.ensure();
    }

    /**
     * Adds {@code delta}, which may be negative, to the counter. If the counter becomes zero,
     * every thread blocked in {@code await} is released.
     *
     * @param delta the amount to add
     * @throws IllegalStateException if the counter would become negative or exceed
     *     {@link Integer#MAX_VALUE}; the group is then unchanged
     */
    public void add(int delta) {
        if (delta == 0) {
            return;
        }
        long increment = (long) delta << 32;
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int previous = counter(s);
            int waiters = waiters(s);
            long counter = (long) previous + delta;
            if (counter < 0L || counter > Integer.MAX_VALUE) {
                throw new IllegalStateException(counter < 0L ? "negative WaitGroup counter" : "WaitGroup counter overflow");
            }
            if (previous == 0 && waiters != 0) {
                // the previous round ended and is not released yet; this add starts the next one
                unparkOthers(releaseRound());
            } else if (STATE.compareAndSet(this, s, s + increment)) {
                if (counter == 0L && waiters != 0) {
                    WaitQueue.unparkAll(releaseRound());
                }
                return;
            }
        }
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
     */
    public void await() throws InterruptedException {
        Interrupts.throwIfInterrupted();
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
     */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = WaitQueue.deadline(unit.toNanos(timeout));
        Interrupts.throwIfInterrupted();
        return await(true, deadline);
    }

    /**
     * Blocks until the counter is zero, waiting through interrupts; the interrupt status is set
     * again when it returns.
     */
    public void awaitUninterruptibly() {
        WaitQueue.Waiter w = register();
        if (w != null) {
            WaitQueue.park(w, false, false, 0L);
        }
    }

    /**
     * Runs {@code task} on a new virtual thread, counted by this group: {@code add(1)} now,
     * {@code done()} when the task returns or throws. A throwable escaping the task goes to the
     * thread's uncaught exception handler <i>before</i> the count drops, so no {@code await} this
     * task releases returns before the failure has been reported (Go 1.26's rule).
     *
     * @param task the task to run
     * @throws NullPointerException if {@code task} is null
     */
    public void go(Runnable task) {
        go(Thread.ofVirtual()::start, task);
    }

    /**
     * Runs {@code task} on {@code executor}, counted by this group: {@code add(1)} now,
     * {@code done()} when the task returns or throws.
     *
     * <p>A throwable escaping the task is passed to the uncaught exception handler of the thread
     * that runs it (inline, that is the caller of {@code go}), and only then does the count drop:
     * no {@code await} this task releases returns before the failure has been reported (Go
     * 1.26's rule). The throwable does not propagate to the executor; whatever the handler
     * throws does, after the count has dropped.
     *
     * <p>If {@code executor.execute} throws (for instance
     * {@link java.util.concurrent.RejectedExecutionException}), the exception propagates, and
     * exactly one of two things happens: if the task has not started, it never will (should the
     * executor have kept it, it returns at once when run) and the count is restored; if it has
     * started, it counts as usual. Either way the group counts the task once.
     *
     * @param executor where to run the task
     * @param task the task to run
     * @throws NullPointerException if {@code executor} or {@code task} is null
     */
    public void go(Executor executor, Runnable task) {
        Objects.requireNonNull(executor, "executor");
        CountedTask counted = new CountedTask(Objects.requireNonNull(task, "task")); // before the count changes
        add(1);
        try {
            executor.execute(counted);
        } catch (Throwable t) {
            if (counted.claim()) { // it has not started, and now never will
                done();
            }
            throw t;
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
        WaitQueue.Waiter w = register();
        if (w == null) {
            return true;
        }
        int outcome = WaitQueue.park(w, true, timed, deadline);
        if (outcome == GRANTED || !leave(w)) {
            if (outcome == WaitQueue.INTERRUPTED) {
                Thread.currentThread().interrupt(); // the round ended before the interrupt could count
            }
            return true;
        }
        if (outcome == WaitQueue.INTERRUPTED) {
            throw Interrupts.consumed();
        }
        return false;
    }

    /**
     * Counts the caller as a waiter and queues its node; {@code null} if the counter is zero (the
     * wait is over).
     */
    private WaitQueue.Waiter register() {
        if (reachedZeroWhileSpinning()) {
            return null;
        }
        WaitQueue q = queue();
        WaitQueue.Waiter w = new WaitQueue.Waiter(); // before the count: running out of memory here changes nothing
        q.lock.lock();
        try {
            for (;;) {
                long s = (long) STATE.getVolatile(this);
                if (counter(s) == 0) {
                    return null;
                }
                if (STATE.compareAndSet(this, s, s + 1L)) {
                    q.enqueue(w, false);
                    return w;
                }
            }
        } finally {
            q.lock.unlock();
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

    private WaitQueue queue() {
        WaitQueue q = (WaitQueue) QUEUE.getAcquire(this);
        if (q == null) {
            WaitQueue created = new WaitQueue();
            WaitQueue witness = (WaitQueue) QUEUE.compareAndExchangeRelease(this, null, created);
            q = witness == null ? created : witness;
        }
        return q;
    }

    /**
     * Un-counts a waiter that gave up (timeout, interrupt); {@code false} if its round ended
     * first, in which case its wait succeeded: it was granted, or it is now, by the release this
     * call completed. Throws nothing of that release's wake-ups: they concern the other waiters.
     */
    private boolean leave(WaitQueue.Waiter w) {
        WaitQueue q = (WaitQueue) QUEUE.getAcquire(this);
        WaitQueue.Waiter granted = null;
        boolean left = false;
        q.lock.lock();
        try {
            while (w.status() == WaitQueue.WAITING) {
                long s = (long) STATE.getVolatile(this);
                if (counter(s) == 0) {
                    granted = releaseLocked(q); // grants w too
                } else if (STATE.compareAndSet(this, s, s - 1L)) {
                    left = q.withdraw(w);
                    break;
                }
            }
        } finally {
            q.lock.unlock();
        }
        unparkOthers(granted);
        return left;
    }

    /**
     * Unparks the waiters of a round this thread released on another's behalf (a waiter leaving, or the add of the
     * next round): throws nothing, since a waiter the JDK cannot wake concerns that waiter only, and
     * {@link WaitQueue#unparkAll} has woken the rest.
     */
    private static void unparkOthers(WaitQueue.Waiter granted) {
        try {
            WaitQueue.unparkAll(granted);
        } catch (Throwable lost) {
            // that waiter is lost; this thread's own operation succeeded all the same
        }
    }

    /**
     * Releases the waiters of a round that has ended, unless another thread has already; returns them, granted, for
     * {@link WaitQueue#unparkAll}.
     */
    private WaitQueue.Waiter releaseRound() {
        WaitQueue q = (WaitQueue) QUEUE.getAcquire(this);
        q.lock.lock();
        try {
            return releaseLocked(q);
        } finally {
            q.lock.unlock();
        }
    }

    /**
     * If the word is (0, n > 0), stores 0 and grants every queued node (see the implementation
     * notes: nothing else can change such a word); returns them for {@link WaitQueue#unparkAll},
     * or {@code null}. Caller holds the queue's lock.
     */
    private WaitQueue.Waiter releaseLocked(WaitQueue q) {
        long s = (long) STATE.getVolatile(this);
        if (counter(s) != 0 || waiters(s) == 0) {
            return null;
        }
        STATE.setVolatile(this, 0L);
        return q.take(Integer.MAX_VALUE, GRANTED);
    }

    /**
     * What {@link #go(Executor, Runnable)} hands the executor. Whoever claims it first decides
     * how the task counts: {@link #run} (the task runs and counts down when it ends) or
     * {@code go} after {@code execute} threw (the task will not run; {@code go} counts down).
     */
    private final class CountedTask implements Runnable {
        private static final VarHandle CLAIMED;

        static {
            try {
                CLAIMED = MethodHandles.lookup().findVarHandle(CountedTask.class, "claimed", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Runnable task;
        @SuppressWarnings("unused") // accessed through CLAIMED
        private volatile boolean claimed;

        CountedTask(Runnable task) {
            this.task = task;
        }

        /** Whether the caller is the first to claim the task. */
        boolean claim() {
            return CLAIMED.compareAndSet(this, false, true);
        }

        @Override
        public void run() {
            if (!claim()) {
                return; // go() took it back when execute threw
            }
            try {
                task.run();
            } catch (Throwable failure) {
                Thread self = Thread.currentThread();
                self.getUncaughtExceptionHandler().uncaughtException(self, failure); // before the count drops
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
