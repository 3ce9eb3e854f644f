package io.ants4j.examples;

import io.ants4j.channels.Chan;
import io.ants4j.primitives.WaitGroup;
import java.util.List;

/**
 * The pipeline of Go's blog post "Go Concurrency Patterns: Pipelines and cancellation", ported: a generator stage, a
 * squaring stage fanned out to several workers reading one channel, and a merge stage that fans their outputs in to
 * one channel, closed once every worker is done. Each stage closes the channel it sends on when it is done, so the
 * next stage's loop ends.
 */
public final class Pipeline {
    private Pipeline() {
    }

    /** Sends {@code numbers} on a new channel, then closes it (Go's {@code gen}). */
    static Chan<Integer> gen(List<Integer> numbers) {
        Chan<Integer> out = new Chan<>();
        Thread.ofVirtual().start(() -> {
            try {
                for (int n : numbers) {
                    out.send(n);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                out.close();
            }
        });
        return out;
    }

    /** Squares what it receives until {@code in} is closed, then closes its output (Go's {@code sq}). */
    static Chan<Integer> sq(Chan<Integer> in) {
        Chan<Integer> out = new Chan<>();
        Thread.ofVirtual().start(() -> {
            try {
                for (int n : in) {
                    out.send(n * n);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                out.close();
            }
        });
        return out;
    }

    /** Fans {@code inputs} in to one channel, closed once every input is closed and drained (Go's {@code merge}). */
    @SafeVarargs
    static Chan<Integer> merge(Chan<Integer>... inputs) {
        Chan<Integer> out = new Chan<>();
        WaitGroup wg = new WaitGroup();
        for (Chan<Integer> in : inputs) {
            wg.go(() -> {
                for (int n : in) {
                    try {
                        out.send(n);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            });
        }
        Thread.ofVirtual().start(() -> {
            try {
                wg.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                out.close();
            }
        });
        return out;
    }

    /**
     * Sums the squares of {@code numbers} through the pipeline, with three squaring workers.
     *
     * @param numbers the numbers
     * @return the sum of their squares
     */
    public static long sumOfSquares(List<Integer> numbers) {
        Chan<Integer> in = gen(numbers);
        long sum = 0;
        for (int square : merge(sq(in), sq(in), sq(in))) { // fan out to three, fan in to one
            sum += square;
        }
        return sum;
    }

    /**
     * Prints the sum of the squares of 1 to 10.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        System.out.println(sumOfSquares(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)));
    }
}
