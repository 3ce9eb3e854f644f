package io.ants4j.examples;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cancellation with a done channel in a {@code select}, Go's idiom: a worker loops taking jobs until {@code done} is
 * closed; closing a channel wakes every receiver at once, so one close stops any number of workers. The caller gives
 * the workers a time budget with {@link Chan#after}.
 */
public final class Cancellation {
    private Cancellation() {
    }

    /**
     * Takes jobs from {@code jobs} and adds them to {@code total} until {@code done} is closed.
     *
     * @param jobs the jobs
     * @param done closed to stop the worker
     * @param total the sum of the jobs taken
     * @throws InterruptedException if interrupted while waiting
     */
    public static void worker(Chan<Integer> jobs, Chan<Void> done, AtomicLong total) throws InterruptedException {
        for (;;) {
            int chosen = Select.select(
                    jobs.onReceive(job -> total.addAndGet(job)),    // case job := <-jobs:
                    done.onReceive(closed -> { }));                  // case <-done:
            if (chosen == 1) {
                return;                                              //     return
            }
        }
    }

    /**
     * Feeds jobs to two workers for {@code budget}, then stops them with one close.
     *
     * @param budget how long to feed the workers
     * @return the sum of the jobs the workers took
     * @throws InterruptedException if interrupted while waiting
     */
    public static long feedFor(Duration budget) throws InterruptedException {
        Chan<Integer> jobs = new Chan<>();
        Chan<Void> done = new Chan<>();
        AtomicLong total = new AtomicLong();
        Thread w1 = Thread.ofVirtual().start(() -> run(jobs, done, total));
        Thread w2 = Thread.ofVirtual().start(() -> run(jobs, done, total));
        Chan<java.time.Instant> timeout = Chan.after(budget);
        boolean feeding = true;
        while (feeding) {
            feeding = Select.select(jobs.onSend(1, () -> { }), timeout.onReceive(t -> { })) == 0;
        }
        done.close();                                                // cancel every worker at once
        w1.join();
        w2.join();
        return total.get();
    }

    private static void run(Chan<Integer> jobs, Chan<Void> done, AtomicLong total) {
        try {
            worker(jobs, done, total);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Feeds two workers for 50 ms.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        System.out.println(feedFor(Duration.ofMillis(50)) + " jobs done");
    }
}
