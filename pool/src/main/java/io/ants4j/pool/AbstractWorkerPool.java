package io.ants4j.pool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link WorkerPool} members that all four pools share, over a {@link Core}: the counts, the name and the
 * statistics, the life cycle with {@link #close()}, and the submit path's accounting.
 *
 * <p>Implementation notes. Every submission of every pool goes through {@link #submitPayload} or
 * {@link #trySubmitPayload}, so submissions and rejections are counted in this one place, once per submission
 * also for a multi-pool, whose core retries on a second sub-pool before giving up. A hand-off costs one
 * {@link LongAdder} increment here; a rejection is counted and reported to JFR ({@link PoolEvents}) on its
 * slow path. A submission counts as rejected whenever {@code dispatch} throws, an {@link Error} included (a thread
 * factory or {@code Thread.start()} that cannot make a thread, or a submitter out of memory or stack), with
 * reason {@code error} unless a {@link RejectedExecutionException} says more; an {@code Error} that comes while
 * a blocked submitter waits, after a worker took its payload (a stack overflow waking it, an
 * {@code OutOfMemoryError} parking a virtual thread), counts as a rejection too, since the submitter saw the
 * call fail, though the task runs. Counting never throws: a counter that cannot allocate its cell loses one count,
 * never the task that was handed over nor the exception of the one that was not. The life-cycle methods report to JFR only
 * when they changed something ({@link Core#release} tells whether it closed the pool), and a released pool
 * leaves the periodic statistics until it is rebooted. A release takes the pool out after its core has closed,
 * then checks that the core is still closed: a reboot in between registered it first, and an open pool must stay
 * in (a closed one left in is harmless: the statistics hook skips closed pools).
 */
abstract class AbstractWorkerPool implements WorkerPool {
    final Core core;
    private final String name;
    private final LongAdder submitted;
    private final LongAdder rejected;
    private final PoolEvents.Registration registration;

    /**
     * A pool over {@code core}, which may already run its purger and ticker: if this constructor cannot
     * allocate what the pool needs, it releases the core before the error propagates, since nobody else could.
     */
    AbstractWorkerPool(String name, Core core) {
        this.name = name;
        this.core = core;
        try {
            submitted = new LongAdder();
            rejected = new LongAdder();
            registration = new PoolEvents.Registration(this);
        } catch (Throwable t) {
            try {
                core.release();
            } catch (Throwable releaseFailed) {
                // the constructor's own error is the one to report
            }
            throw t;
        }
        PoolEvents.register(registration); // never throws
    }

    // ------------------------------------------------------------------------------------------ submit

    /** Hands {@code payload} to a worker, blocking as the options say (see {@link Core#dispatch}). */
    final void submitPayload(Object payload) {
        submit(payload, false, 0L);
    }

    /** Hands {@code payload} to a worker if one is or becomes free within {@code nanos}. */
    final boolean trySubmitPayload(Object payload, long nanos) {
        return submit(payload, true, nanos);
    }

    private boolean submit(Object payload, boolean timed, long nanos) {
        long start = timed ? System.nanoTime() : 0L;
        boolean ok;
        try {
            ok = core.dispatch(payload, timed, nanos);
        } catch (RejectedExecutionException e) {
            rejected(e instanceof PoolClosedException ? PoolEvents.CLOSED
                    : e instanceof PoolOverloadException ? PoolEvents.OVERLOAD
                    : e.getCause() instanceof InterruptedException ? PoolEvents.INTERRUPTED
                    : PoolEvents.ERROR);
            throw e;
        } catch (Error e) { // from the thread factory or Thread.start ("unable to create native thread")
            rejected(PoolEvents.ERROR);
            throw e;
        }
        if (ok) {
            try {
                submitted.increment();
            } catch (Throwable countNotKept) {
                // the task is on its way: the statistics lose one submission
            }
        } else { // a bounded hand-off gives up before its deadline only on the blocking limit
            rejected(System.nanoTime() - start >= nanos ? PoolEvents.TIMEOUT : PoolEvents.OVERLOAD);
        }
        return ok;
    }

    /**
     * Refuses a timed submission whose deadline passed before it was made (a bulk call's next task): counts it as
     * rejected, for the pool's being closed if it is, which it throws then, or else for the timeout, which it
     * returns as {@code false}, as {@link #trySubmitPayload} does for a submission that times out.
     *
     * @throws PoolClosedException if the pool is closed
     */
    final boolean refuseAtDeadline() {
        if (core.isClosed()) {
            rejected(PoolEvents.CLOSED);
            throw new PoolClosedException();
        }
        rejected(PoolEvents.TIMEOUT);
        return false;
    }

    private void rejected(String reason) {
        try {
            rejected.increment();
        } catch (Throwable countNotKept) {
            // the submitter learns of the rejection all the same
        }
        PoolEvents.rejected(name, reason);
    }

    // ------------------------------------------------------------------------------------------ counts

    @Override
    public final int running() {
        return core.running();
    }

    @Override
    public final int free() {
        return core.free();
    }

    @Override
    public final int waiting() {
        return core.waiting();
    }

    @Override
    public final int cap() {
        return core.cap();
    }

    @Override
    public final int idle() {
        return core.idle();
    }

    @Override
    public final PoolStats stats() {
        return core.stats().plus(new PoolStats(submitted.sum(), 0L, 0L, rejected.sum(), 0L, Duration.ZERO));
    }

    @Override
    public final String name() {
        return name;
    }

    // ------------------------------------------------------------------------------------------ life cycle

    @Override
    public final void tune(int size) {
        long capacities = core.tune(size);
        PoolEvents.tuned(name, size, Core.capacityBefore(capacities), Core.capacityAfter(capacities));
    }

    @Override
    public final boolean isClosed() {
        return core.isClosed();
    }

    @Override
    public final boolean isTerminated() {
        return core.isTerminated();
    }

    @Override
    public final boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        refuseWaitInsideTransition("awaitTermination");
        return core.awaitTermination(unit.toNanos(timeout));
    }

    @Override
    public final void release() {
        if (core.release()) {
            released(false);
        }
    }

    /** Releases the pool and interrupts its running tasks ({@code shutdownNow}). */
    final void releaseNow() {
        if (core.shutdownNow()) {
            released(true);
        }
    }

    private void released(boolean interrupt) {
        PoolEvents.unregister(registration);
        if (!core.isClosed()) { // a reboot came after the close and registered first: undo the unregistering
            PoolEvents.register(registration);
        }
        PoolEvents.released(name, interrupt, core.running());
    }

    @Override
    public final void releaseTimeout(Duration timeout) throws TimeoutException {
        Objects.requireNonNull(timeout, "timeout");
        refuseWaitInsideTransition("releaseTimeout");
        release();
        core.awaitReleased(timeout); // closes nothing: a reboot made meanwhile on another thread stands
    }

    @Override
    public final void reboot() {
        core.reboot();
        PoolEvents.register(registration);
    }

    @Override
    public final void close() {
        refuseWaitInsideTransition("close()");
        if (core.isTerminated()) {
            return;
        }
        release();
        boolean interrupted = false;
        try {
            for (;;) {
                try {
                    if (core.awaitClose(TimeUnit.DAYS.toNanos(1))) {
                        break;
                    }
                } catch (InterruptedException e) {
                    if (!interrupted) {
                        interrupted = true; // first: the interrupt is kept if the shutdownNow throws
                        releaseNow();
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Refuses a wait for termination from inside the pool's own {@code shutdownNow} on the same thread (its
     * logger): the pool cannot terminate before that walk has interrupted every task, and the walk waits for
     * the logger, so the wait would last until the tasks not interrupted yet end on their own, or for ever.
     */
    private void refuseWaitInsideTransition(String call) {
        if (core.inTransitionOnCurrentThread()) {
            throw new IllegalStateException(call + " called from inside this pool's shutdownNow (by its logger):"
                    + " the pool cannot terminate before that shutdownNow has interrupted every task");
        }
    }

    /**
     * Returns the name, then the kind, state and counts, e.g.
     * {@code orders[Pool, open, cap=4, running=2, idle=1, waiting=0, submitted=10, ...]}.
     */
    @Override
    public String toString() {
        PoolStats s = stats();
        int c = core.cap();
        return name + '[' + getClass().getSimpleName() + ", " + core.state()
                + ", cap=" + (c < 0 ? "unlimited" : String.valueOf(c)) + ", running=" + core.running()
                + ", idle=" + core.idle() + ", waiting=" + core.waiting() + ", submitted=" + s.submitted()
                + ", completed=" + s.completed() + ", failed=" + s.failed() + ", rejected=" + s.rejected()
                + ", blocked=" + s.blockedSubmits() + ']';
    }
}
