package io.ants4j.channels;

/**
 * Run in a JVM of its own with a small heap and no TLABs by {@link AWaitInterruptedOnAFullHeapKeepsTheInterruptTest}
 * (a port of the primitives' probe of the same name); prints {@code OK} last, or {@code FAIL: } and what went wrong,
 * or {@code INCONCLUSIVE: } if the interrupted wait never ran out of memory.
 *
 * <p>A platform thread waits in the channel operation named by the argument. Once it is parked, the heap is filled
 * and the thread interrupted. Its park ends, it clears its interrupt status (Thread.interrupted() in Waiter.await),
 * wins the cancel, leaves the queue, and only then makes its {@code InterruptedException}: on the full heap that
 * throws {@code OutOfMemoryError}, and the interrupt is lost, neither thrown nor kept in the status. The first round
 * runs with memory to spare; then up to ten rounds on a full heap.
 */
final class AWaitInterruptedOnAFullHeapKeepsTheInterruptProbe {
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
        String result;
        try {
            result = probe(args[0]);
        } catch (Throwable t) {
            result = "FAIL: the probe threw " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static Wait setUp(String which) {
        return switch (which) {
            case "receive" -> {
                Chan<String> c = new Chan<>();
                yield c::receive;
            }
            case "send" -> {
                Chan<String> c = new Chan<>();
                yield () -> c.send("v");
            }
            case "select" -> {
                Chan<String> a = new Chan<>();
                Chan<String> b = new Chan<>();
                yield () -> Select.select(a.onReceive(v -> { }), b.onReceive(v -> { }));
            }
            default -> throw new IllegalArgumentException("unknown probe " + which);
        };
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
                fillHeap();
            }
            waiter.interrupt();
            long bound = System.nanoTime() + 20_000_000_000L;
            while (!ended && System.nanoTime() - bound < 0L) {
                if (fill) {
                    try {
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
                return "OK";
            }
        }
        return "INCONCLUSIVE: the interrupted wait never ran out of memory";
    }

    private static void fillHeap() {
        hog = HeapFill.fill(hog);
    }
}
