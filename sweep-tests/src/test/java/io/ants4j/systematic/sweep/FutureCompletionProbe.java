package io.ants4j.systematic.sweep;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a JVM set up as a sweep JVM ({@link FutureCompletionLinkTest}): completes a {@link FutureTask} on an
 * exhausted heap while another thread waits for it in {@code get()}, and prints {@code woken} if that thread
 * returns, else {@code parked}. Arguments: {@code prepared} to call {@link SweepMain#linkFutureCompletion()}
 * first, as a sweep JVM does, or {@code bare}.
 */
public final class FutureCompletionProbe {
    private FutureCompletionProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("prepared")) {
            SweepMain.linkFutureCompletion();
        }
        HeapFiller filler = new HeapFiller();
        FutureTask<Object> task = new FutureTask<>(() -> filler);
        Thread waiter = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                task.get();
            } catch (InterruptedException | ExecutionException e) {
                throw new AssertionError(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (waiter.getState() != Thread.State.WAITING) { // parked in get(), its node queued
            if (System.nanoTime() - deadline > 0L) {
                throw new IllegalStateException("the waiter did not park in get(): " + waiter.getState());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        Throwable thrown = null;
        filler.fill(0L);
        try {
            task.run();
        } catch (Throwable t) {
            thrown = t;
        }
        filler.release();
        waiter.join(TimeUnit.SECONDS.toMillis(5));
        System.out.println((waiter.isAlive() ? "parked" : "woken") + " (run threw " + thrown + ", isDone="
                + task.isDone() + ")");
        System.exit(0);
    }
}
