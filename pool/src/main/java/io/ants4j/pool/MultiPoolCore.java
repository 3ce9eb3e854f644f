package io.ants4j.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The machinery shared by {@link MultiPool} and {@link MultiPoolWithFunc} (ants' {@code MultiPool} and
 * {@code MultiPoolWithFunc}): N independent {@link PoolCore}s, all running the same kind of payload, and a
 * load-balancing choice among them.
 *
 * <p>Implementation notes. Each sub-pool has its own lock, so N sub-pools cut lock contention N-fold.
 * {@link LoadBalancing#ROUND_ROBIN} takes {@code index.incrementAndGet()} modulo N (unsigned, so the counter
 * may wrap), and when the chosen sub-pool is overloaded retries once on the least-running one, as ants does;
 * {@link LoadBalancing#LEAST_TASKS} scans the {@code running()} counts (a racy but harmless snapshot). The
 * multi-pool's own open/closed state is one atomic word; closing it closes every sub-pool. Rejections are
 * counted here once per submission (the sub-pools' dispatch counts none), completed and failed tasks are
 * summed from the sub-pools.
 *
 * <p>The sub-pools share one {@linkplain SpinningWorkers fast lane}: a payload goes to whichever sub-pool's
 * worker spins in it, whatever sub-pool the balancing chose, and runs there (counted by that sub-pool). With a
 * lane each, round robin would find the one spinning worker the JVM allows in the lane only every N-th
 * submission, and wake a parked worker for all the others.
 */
final class MultiPoolCore {
    private static final int OPENED = 0;
    private static final int CLOSED = 1;

    private final String kind;
    private final PoolCore[] pools;
    private final LoadBalancing lb;
    private final AtomicInteger index = new AtomicInteger(-1);
    private final AtomicInteger state = new AtomicInteger(OPENED);
    private final LongAdder rejected = new LongAdder();

    MultiPoolCore(String kind, int n, int sizePerPool, LoadBalancing lb, PoolOptions options,
                  Consumer<Object> runner) {
        if (n <= 0) {
            throw new IllegalArgumentException("pools must be positive: " + n);
        }
        if (sizePerPool <= 0) {
            throw new IllegalArgumentException("sizePerPool must be positive: " + sizePerPool);
        }
        this.kind = kind;
        this.lb = Objects.requireNonNull(lb, "lb");
        Objects.requireNonNull(options, "options");
        pools = new PoolCore[n];
        SpinningWorkers lane = new SpinningWorkers();
        try {
            for (int i = 0; i < n; i++) {
                pools[i] = new PoolCore(kind + '#' + i, sizePerPool, options, runner, lane);
            }
        } catch (RuntimeException | Error e) {
            for (PoolCore p : pools) {
                if (p != null) {
                    p.release();
                }
            }
            throw e;
        }
    }

    private int next(LoadBalancing strategy) {
        if (strategy == LoadBalancing.ROUND_ROBIN) {
            return Integer.remainderUnsigned(index.incrementAndGet(), pools.length);
        }
        int best = 0;
        int least = Integer.MAX_VALUE;
        for (int i = 0; i < pools.length; i++) {
            int n = pools[i].running();
            if (n < least) {
                least = n;
                best = i;
            }
        }
        return best;
    }

    void submit(Object payload) {
        try {
            if (state.get() == CLOSED) {
                throw new PoolClosedException();
            }
            try {
                pools[next(lb)].dispatch(payload, false, 0L);
            } catch (PoolOverloadException e) {
                if (lb != LoadBalancing.ROUND_ROBIN) {
                    throw e;
                }
                pools[next(LoadBalancing.LEAST_TASKS)].dispatch(payload, false, 0L);
            }
        } catch (RejectedExecutionException e) {
            rejected.increment();
            throw e;
        }
    }

    private PoolCore pool(int i) {
        return pools[Objects.checkIndex(i, pools.length)];
    }

    int running() {
        int n = 0;
        for (PoolCore p : pools) {
            n += p.running();
        }
        return n;
    }

    int running(int i) {
        return pool(i).running();
    }

    /** The sum of the parts' free slots; never -1, the parts being bounded (sizePerPool and tune are positive). */
    int free() {
        int n = 0;
        for (PoolCore p : pools) {
            n += p.free();
        }
        return n;
    }

    int free(int i) {
        return pool(i).free();
    }

    int waiting() {
        int n = 0;
        for (PoolCore p : pools) {
            n += p.waiting();
        }
        return n;
    }

    int waiting(int i) {
        return pool(i).waiting();
    }

    int cap() {
        int n = 0;
        for (PoolCore p : pools) {
            int c = p.cap();
            if (c < 0) {
                return -1;
            }
            n += c;
        }
        return n;
    }

    void tune(int size) {
        for (PoolCore p : pools) {
            p.tune(size);
        }
    }

    boolean isClosed() {
        return state.get() == CLOSED;
    }

    void release() {
        if (state.compareAndSet(OPENED, CLOSED)) {
            for (PoolCore p : pools) {
                p.release();
            }
        }
    }

    void shutdownNow() {
        release();
        for (PoolCore p : pools) {
            p.shutdownNow();
        }
    }

    /**
     * Releases every sub-pool at once, then waits for all of them against one deadline, so the sub-pools
     * wind down in parallel; reports every sub-pool still alive at the deadline in one exception.
     */
    void releaseTimeout(Duration timeout) throws TimeoutException {
        Objects.requireNonNull(timeout, "timeout");
        release();
        long deadline = System.nanoTime() + Pool.nanos(timeout);
        List<String> late = new ArrayList<>();
        boolean interrupted = false;
        for (int i = 0; i < pools.length; i++) {
            for (;;) {
                try {
                    if (!pools[i].awaitTermination(deadline - System.nanoTime())) {
                        late.add("pool " + i + ": " + pools[i].running() + " worker(s) still running");
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!late.isEmpty()) {
            throw new TimeoutException(kind + " did not terminate within " + timeout + ": "
                    + String.join(" | ", late));
        }
    }

    void reboot() {
        if (state.compareAndSet(CLOSED, OPENED)) {
            index.set(-1);
            for (PoolCore p : pools) {
                p.reboot();
            }
        }
    }

    boolean isTerminated() {
        if (state.get() != CLOSED) {
            return false;
        }
        for (PoolCore p : pools) {
            if (!p.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    boolean awaitTermination(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (PoolCore p : pools) {
            if (!p.awaitTermination(deadline - System.nanoTime())) {
                return false;
            }
        }
        return state.get() == CLOSED;
    }

    PoolStats stats() {
        PoolStats s = new PoolStats(0, 0, rejected.sum());
        for (PoolCore p : pools) {
            s = s.plus(p.stats());
        }
        return s;
    }

    @Override
    public String toString() {
        PoolStats s = stats();
        return kind + '[' + (isClosed() ? "closed" : "open") + ", pools=" + pools.length + ", lb=" + lb
                + ", cap=" + cap() + ", running=" + running() + ", waiting=" + waiting()
                + ", completed=" + s.completed() + ", failed=" + s.failed() + ", rejected=" + s.rejected() + ']';
    }
}
