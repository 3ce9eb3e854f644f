package io.ants4j.examples;

import io.ants4j.channels.Chan;
import io.ants4j.primitives.WaitGroup;

/**
 * The simple pool of Go's tutorials, ported: a fixed number of workers range over an unbuffered channel of tasks, so
 * {@link #add} blocks until a worker is free; {@link #run} closes the channel and waits for the workers to drain it.
 * Unlike the Go original, a task that throws an exception does not take its worker down with it (the Go version's
 * recover calls {@code Done} and the worker is gone for the rest of the run). An {@link Error} is not caught.
 */
public final class SimplePool {
    private final Chan<Runnable> work = new Chan<>();
    private final WaitGroup workers = new WaitGroup();

    /**
     * Starts {@code n} workers, each a virtual thread ranging over the channel of tasks.
     *
     * @param n the number of workers
     */
    public SimplePool(int n) {
        for (int i = 0; i < n; i++) {
            workers.go(() -> {
                for (Runnable task : work) {   // for fn := range p.work
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        System.err.println("task failed: " + e);
                    }
                }
            });
        }
    }

    /**
     * Hands {@code task} to a worker, waiting until one takes it.
     *
     * @param task the task
     * @throws InterruptedException if interrupted while waiting for a worker
     */
    public void add(Runnable task) throws InterruptedException {
        work.send(task);                        // p.work <- fn
    }

    /**
     * No more tasks: waits until the workers have run every task added and ended.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void run() throws InterruptedException {
        work.close();                           // close(p.work)
        workers.await();                        // p.wg.Wait()
    }

    /**
     * Runs 100 tasks on 20 workers.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        SimplePool pool = new SimplePool(20);
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        for (int i = 0; i < 100; i++) {
            pool.add(done::incrementAndGet);
        }
        pool.run();
        System.out.println(done.get() + " tasks run");
    }
}
