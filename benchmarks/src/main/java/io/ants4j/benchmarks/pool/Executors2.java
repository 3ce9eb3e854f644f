package io.ants4j.benchmarks.pool;

import io.ants4j.pool.WorkerPool;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Shutting pools and executors down at the end of a trial, loudly if they hang. */
final class Executors2 {
    private Executors2() {
    }

    static void release(WorkerPool pool) throws Exception {
        if (pool != null) {
            pool.releaseTimeout(Duration.ofSeconds(30));
        }
    }

    static void shutdown(ExecutorService executor) throws InterruptedException {
        if (executor != null) {
            executor.shutdown();
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(executor + " did not terminate");
            }
        }
    }
}
