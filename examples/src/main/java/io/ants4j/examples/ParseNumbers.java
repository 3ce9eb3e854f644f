package io.ants4j.examples;

import io.ants4j.pool.PoolOptions;
import io.ants4j.pool.PoolStats;
import io.ants4j.pool.PoolWithFunc;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link PoolWithFunc} with a panic handler: every worker runs one function, fixed when the pool is made, and
 * {@code invoke} hands over only the argument (no task object per call). Whatever the function throws goes to
 * the {@linkplain PoolOptions.Builder#panicHandler panic handler} on the worker's thread, Go's
 * {@code recover()} in ants; the worker survives and takes the next argument, and the caller of
 * {@code invoke} never sees the exception.
 */
public final class ParseNumbers {
    /**
     * What parsing produced.
     *
     * @param sum      the sum of the numbers that parsed
     * @param failures what the function threw, one per input that did not parse
     * @param stats    the pool's counts of completed and failed calls
     */
    public record Result(long sum, List<Throwable> failures, PoolStats stats) {
    }

    private ParseNumbers() {
    }

    /**
     * Parses six inputs, two of them broken, and prints the sum and the failures.
     *
     * @param args ignored
     * @throws TimeoutException if the pool does not finish within a minute
     */
    public static void main(String[] args) throws TimeoutException {
        Result result = parse(List.of("1", "2", "three", "4", "", "6"), 4);
        System.out.println("sum " + result.sum() + ", " + result.stats());
        result.failures().forEach(f -> System.out.println("handled: " + f));
    }

    /**
     * Parses every input as a {@code long} on a pool of {@code workers} and adds the numbers up.
     *
     * @param inputs  the texts to parse
     * @param workers the pool's capacity
     * @return the sum, the failures and the pool's counts
     * @throws TimeoutException if the pool does not finish within a minute
     */
    public static Result parse(List<String> inputs, int workers) throws TimeoutException {
        LongAdder sum = new LongAdder();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        PoolWithFunc<String> pool = PoolWithFunc.newPool(workers,
                (String text) -> sum.add(Long.parseLong(text)),
                PoolOptions.builder().panicHandler(failures::add).build());
        inputs.forEach(pool::invoke);
        pool.releaseTimeout(Duration.ofMinutes(1));   // close, then wait until every worker has ended
        return new Result(sum.sum(), List.copyOf(failures), pool.stats());
    }
}
