package io.ants4j.examples;

import io.ants4j.primitives.TaskGroup;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;

/**
 * errgroup's "fetch them all, fail fast" with {@link TaskGroup}: at most {@code limit} fetches at once, the
 * bodies in the order of the URLs, and the first failure cancels the fetches still running. The same in Go:
 *
 * <pre>{@code
 * g, ctx := errgroup.WithContext(ctx)
 * g.SetLimit(limit)
 * bodies := make([]string, len(urls))
 * for i, url := range urls {
 *     g.Go(func() (err error) {
 *         bodies[i], err = fetch(ctx, url)
 *         return err
 *     })
 * }
 * if err := g.Wait(); err != nil {
 *     return nil, err
 * }
 * return bodies, nil
 * }</pre>
 */
public final class FetchAll {
    private FetchAll() {
    }

    /** Fetches one URL; may block, may throw. */
    @FunctionalInterface
    public interface Fetcher {
        /**
         * Fetches {@code url}.
         *
         * @param url the address
         * @return the body
         * @throws Exception if the fetch fails
         */
        String fetch(String url) throws Exception;
    }

    /**
     * Fetches ten made-up pages, four at a time, and prints their bodies.
     *
     * @param args ignored
     * @throws Exception if a fetch failed or the wait was interrupted
     */
    public static void main(String[] args) throws Exception {
        List<String> urls = IntStream.range(0, 10).mapToObj(i -> "https://example.com/" + i).toList();
        fetchAll(urls, 4, url -> {
            Thread.sleep(100); // the network
            return "<html>" + url + "</html>";
        }).forEach(System.out::println);
    }

    /**
     * Fetches every URL, at most {@code limit} at once, each in a virtual thread.
     *
     * @param urls the addresses
     * @param limit the most fetches at once
     * @param fetcher fetches one address
     * @return the bodies, in the order of {@code urls}
     * @throws ExecutionException if a fetch failed: the cause is the first failure; the other fetches were
     *     cancelled and none of them runs any more
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<String> fetchAll(List<String> urls, int limit, Fetcher fetcher)
            throws ExecutionException, InterruptedException {
        try (TaskGroup<String> group = TaskGroup.create(limit)) {
            for (String url : urls) {
                group.go(() -> fetcher.fetch(url));   // blocks while `limit` fetches run
            }
            return group.await();                     // in the order of the go calls
        }                                             // close(): nothing of the group outlives the block
    }
}
