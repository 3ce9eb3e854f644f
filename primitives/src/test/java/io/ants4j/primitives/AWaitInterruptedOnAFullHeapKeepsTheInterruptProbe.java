package io.ants4j.primitives;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

/**
 * Run in a JVM of its own with a small heap and no thread-local allocation buffers by
 * {@link AWaitInterruptedOnAFullHeapKeepsTheInterruptTest}; prints {@code OK} last, or {@code FAIL: } and what went
 * wrong, or {@code INCONCLUSIVE: } if the interrupted wait never ran out of memory.
 *
 * <p>A platform thread waits, interruptibly, in the primitive named by the argument (a {@code Mutex} another holds,
 * and so on). Once it is parked, with its node allocated, the heap is filled and the thread interrupted. Its park
 * ends, it leaves the queue (which allocates nothing), clears its interrupt status, and only then makes its
 * {@code InterruptedException}: on the full heap that throws {@code OutOfMemoryError}, and the interrupt is lost,
 * neither thrown nor kept in the status. {@code SingleFlight}'s waiter makes its exception before it clears the
 * status, so it keeps the interrupt ({@code singleflight}, the control). The first round runs with memory to spare,
 * so that every call site is linked; then up to ten rounds on a full heap, since a few bytes freed meanwhile may
 * let the exception be made (while the waiter ends, this thread takes whatever is freed).
 */
final class AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe {
    /** A wait that ends by an interrupt. */
    private interface Wait {
        void run() throws Exception;
    }

    private static volatile Object[] hog;
    private static volatile Throwable thrown;
    private static volatile boolean interruptedAfter;
    private static volatile boolean ended;

    private AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe() {
    }

    public static void main(String[] args) {
        ProbeReport.printAndHalt(() -> probe(args[0]));
    }

    private static Wait setUp(String which) throws Exception {
        switch (which) {
            case "mutex" -> {
                Mutex m = new Mutex();
                m.lock();
                return m::lockInterruptibly;
            }
            case "rwmutex-read" -> {
                RWMutex m = new RWMutex();
                m.writeLock().lock();
                return m.readLock()::lockInterruptibly;
            }
            case "rwmutex-write" -> {
                RWMutex m = new RWMutex();
                m.readLock().lock();
                return m.writeLock()::lockInterruptibly;
            }
            case "semaphore" -> {
                WeightedSemaphore s = new WeightedSemaphore(1);
                s.acquire(1);
                return () -> s.acquire(1);
            }
            case "waitgroup" -> {
                WaitGroup g = new WaitGroup();
                g.add(1);
                return g::await;
            }
            case "cond" -> {
                Mutex m = new Mutex();
                Cond c = new Cond(m);
                return () -> {
                    m.lock();
                    try {
                        c.await();
                    } finally {
                        m.unlock();
                    }
                };
            }
            case "taskgroup-future-get" -> {
                TaskGroup<Object> g = TaskGroup.create();
                CountDownLatch never = new CountDownLatch(1);
                Future<Object> f = g.go(() -> {
                    never.await();
                    return null;
                });
                return f::get;
            }
            case "singleflight" -> {
                SingleFlight<String, String> sf = new SingleFlight<>();
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch never = new CountDownLatch(1);
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        sf.run("k", () -> {
                            started.countDown();
                            never.await();
                            return "v";
                        });
                    } catch (Exception e) {
                        // not reached: the function never returns
                    }
                });
                started.await();
                return () -> sf.run("k", () -> "never called: joins the call in flight");
            }
            default -> throw new IllegalArgumentException("unknown probe " + which);
        }
    }

    private static String probe(String which) throws Exception {
        for (int round = 0; round <= 10; round++) {
            boolean fill = round > 0;
            Wait w = setUp(which);
            thrown = null;
            interruptedAfter = false;
            ended = false;
            Thread waiter = Thread.ofPlatform().daemon().start(() -> {
                try {
                    w.run();
                } catch (Throwable t) {
                    thrown = t;
                }
                interruptedAfter = Thread.currentThread().isInterrupted();
                ended = true;
            });
            long setUpBound = System.nanoTime() + 20_000_000_000L;
            while (waiter.getState() != Thread.State.WAITING) {
                if (System.nanoTime() - setUpBound > 0L) {
                    return "FAIL: setup: the waiter did not park (" + waiter.getState() + ")";
                }
                Thread.onSpinWait();
            }
            if (fill) {
                fillHeap();
                fillHeap(); // what was freed meanwhile
            }
            waiter.interrupt();
            long bound = System.nanoTime() + 20_000_000_000L;
            while (!ended && System.nanoTime() - bound < 0L) {
                if (fill) {
                    try { // takes whatever is freed meanwhile, so that the waiter finds the heap full
                        hog = new Object[] {hog};
                    } catch (OutOfMemoryError e) {
                        Thread.onSpinWait();
                    }
                }
            }
            hog = null;
            String seen = which + (fill ? " on a full heap" : " with memory to spare") + ": the wait threw " + thrown
                    + ", interrupt status afterwards " + interruptedAfter;
            System.out.println(seen);
            if (!ended) {
                return "FAIL: the interrupted waiter did not return (" + seen + ")";
            }
            if (!(thrown instanceof InterruptedException) && !interruptedAfter) {
                return "FAIL: the interrupt is lost: neither thrown nor kept in the interrupt status (" + seen + ")";
            }
            if (fill && thrown instanceof OutOfMemoryError) {
                return "OK"; // the wait ran out of memory on the full heap and kept the interrupt
            }
        }
        return "INCONCLUSIVE: the interrupted wait never ran out of memory";
    }

    /** Allocates until the heap is full, keeping everything reachable through {@link #hog}. */
    private static void fillHeap() {
        hog = HeapFill.fill(hog);
    }
}
