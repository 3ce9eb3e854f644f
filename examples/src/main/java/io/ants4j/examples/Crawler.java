package io.ants4j.examples;

import io.ants4j.pool.Pool;
import io.ants4j.primitives.WaitGroup;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The crawler of ants4j's design notes: 100 pages of 1 s each through a pool of 20 workers takes about 5 s,
 * since at most 20 pages are crawled at once and a submitter waits for a free worker instead of queueing.
 * {@link Pool} keeps the number of threads bounded; a {@link WaitGroup} tells when every page is done.
 */
public final class Crawler {
    private Crawler() {
    }

    /**
     * Crawls 100 pages of 1 s each through 20 workers and prints how long it took (about 5 s).
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting for the pages
     */
    public static void main(String[] args) throws InterruptedException {
        long start = System.nanoTime();
        crawl(100, 20, Duration.ofSeconds(1), System.out::println);
        System.out.printf("100 pages in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    /**
     * Crawls {@code pages} pages, each taking {@code perPage}, with at most {@code workers} at once, and reports
     * {@code "finish parse <page>"} for each page as it finishes.
     *
     * @param pages   how many pages to crawl
     * @param workers the most pages crawled at once
     * @param perPage how long crawling one page takes
     * @param report  receives one line per finished page, from the worker that crawled it
     * @throws InterruptedException if interrupted while waiting for the pages
     */
    public static void crawl(int pages, int workers, Duration perPage, Consumer<String> report)
            throws InterruptedException {
        try (Pool pool = Pool.newPool(workers)) {
            WaitGroup wg = new WaitGroup();
            for (int i = 0; i < pages; i++) {
                int page = i;
                wg.add(1);
                pool.execute(() -> {                   // blocks while every worker is busy
                    try {
                        Thread.sleep(perPage);         // "crawl" one page
                        report.accept("finish parse " + page);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        wg.done();
                    }
                });
            }
            wg.await();
        }                                              // close(): shut down and wait for the workers
    }
}
