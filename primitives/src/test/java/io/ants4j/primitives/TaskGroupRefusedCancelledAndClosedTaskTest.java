package io.ants4j.primitives;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * TaskGroup contracts in combinations (review 41): a task the executor refuses leaves no entry in the results and
 * gives its slot back; a Future cancelled before its task ran holds null in the results and cancels no group; after
 * cancel(), go and tryGo return cancelled Futures, await throws CancellationException, and close() may be called twice.
 */
class TaskGroupRefusedCancelledAndClosedTaskTest {

    /**
     * "If its execute throws, go throws that exception ... and the task is not part of the group"; await "returns
     * their results in the order of the go calls". A refused task leaves no entry; tryGo's task keeps its place;
     * the refused task's slot is given back (limit 1: the next go does not block).
     */
    @Test
    void aRefusedTaskLeavesNoPlaceInTheResultsAndGivesItsSlotBack() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Executor refusesSecond = r -> {
            if (calls.incrementAndGet() == 2) {
                throw new RejectedExecutionException("no");
            }
            r.run(); // inline
        };
        TaskGroup<String> g = TaskGroup.create(1, refusesSecond);
        g.go(() -> "a");
        assertThrows(RejectedExecutionException.class, () -> g.go(() -> "refused"));
        assertTrue(g.tryGo(() -> "b").isPresent(), "the refused task's slot was not given back");
        g.go(() -> "c");
        assertEquals(List.of("a", "b", "c"), g.await());
        assertTrue(g.toString().contains("running=0"), g.toString());
        g.setLimit(2); // no task active: allowed
        assertEquals(List.of(), g.await());
    }

    /** "Cancelling the Future of a single task cancels that task only; its place in the results of await holds null". */
    @Test
    void aTaskWhoseFutureWasCancelledBeforeItRanHoldsNullAndTheGroupGoesOn() throws Exception {
        java.util.concurrent.ConcurrentLinkedQueue<Runnable> queued = new java.util.concurrent.ConcurrentLinkedQueue<>();
        TaskGroup<String> g = TaskGroup.create(-1, queued::add);
        Future<String> a = g.go(() -> "a");
        Future<String> b = g.go(() -> "b");
        assertTrue(b.cancel(false));
        assertThrows(CancellationException.class, () -> b.get(1, TimeUnit.SECONDS));
        for (Runnable r; (r = queued.poll()) != null;) {
            r.run();
        }
        assertEquals("a", a.get(1, TimeUnit.SECONDS));
        assertEquals(java.util.Arrays.asList("a", null), g.await());
        assertFalse(g.isCancelled());
    }

    /** "Cancellation is final: afterwards go and tryGo start nothing and return an already cancelled Future." */
    @Test
    void afterCancelGoAndTryGoReturnCancelledFuturesAndAwaitThrowsCancellation() throws Exception {
        TaskGroup<String> g = TaskGroup.create(0);
        g.cancel();
        assertTrue(g.go(() -> fail("ran")).isCancelled());
        assertTrue(g.tryGo(() -> fail("ran")).orElseThrow().isCancelled());
        assertThrows(CancellationException.class, g::await);
        g.close();
        g.close();
    }
}
