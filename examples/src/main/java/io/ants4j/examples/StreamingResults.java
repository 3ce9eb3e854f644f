package io.ants4j.examples;

import io.ants4j.channels.Chan;
import io.ants4j.primitives.WaitGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A batch whose results stream back through a channel as they complete (go-playground/pool's {@code Results()}):
 * each job runs on its own virtual thread and sends its result when it is done, so the caller handles the fast ones
 * while the slow ones still run; the channel is closed once every job has sent.
 */
public final class StreamingResults {
    private StreamingResults() {
    }

    /**
     * Starts {@code job} for each input; the returned channel gives the results in the order they complete, and is
     * closed after the last.
     *
     * @param inputs the inputs
     * @param job the job, run once per input
     * @param <I> the type of the inputs
     * @param <R> the type of the results
     * @return the channel of results
     */
    public static <I, R> Chan<R> results(List<I> inputs, Function<I, R> job) {
        Chan<R> results = new Chan<>(inputs.size()); // room for all: a job never waits for the reader
        WaitGroup batch = new WaitGroup();
        for (I input : inputs) {
            batch.go(() -> results.offer(job.apply(input)));
        }
        Thread.ofVirtual().start(() -> {
            try {
                batch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                results.close();
            }
        });
        return results;
    }

    /**
     * Lengths of three words, printed as they come.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        List<Integer> lengths = new ArrayList<>();
        for (int length : results(List.of("channels", "select", "go"), String::length)) {
            lengths.add(length);
        }
        System.out.println(lengths);
    }
}
