package io.ants4j.examples;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs every example with small sizes and checks what it computed, so the code users copy from is compiled and
 * executed by every build. Each example waits only for work it started itself; the class timeout bounds those
 * waits.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExamplesTest {

    @Test
    void cacheLoaderAsksTheBackendOnceForConcurrentMissesAndKeepsNoFailure() throws Exception {
        AtomicInteger queries = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        CacheLoader<String, String> users = new CacheLoader<>(id -> {
            queries.incrementAndGet();
            try {
                assertTrue(release.await(20, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            return "user " + id;
        });
        List<Future<String>> requests = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 100; i++) {
                requests.add(threads.submit(() -> users.get("42")));
            }
            release.countDown();
        }
        for (Future<String> request : requests) {
            assertEquals("user 42", request.get());
        }
        assertEquals(1, queries.get());

        IllegalStateException down = new IllegalStateException("database down");
        AtomicInteger attempts = new AtomicInteger();
        CacheLoader<String, String> flaky = new CacheLoader<>(id -> {
            if (attempts.incrementAndGet() == 1) {
                throw down;
            }
            return "user " + id;
        });
        assertSame(down, assertThrows(ExecutionException.class, () -> flaky.get("7")).getCause());
        assertEquals("user 7", flaky.get("7"));
        assertEquals("user 7", flaky.get("7"));
        assertEquals(2, attempts.get());
    }

    @Test
    void crawlerFinishesEveryPageOnceAndNeverRunsMoreThanItsWorkers() throws InterruptedException {
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        Duration perPage = Duration.ofMillis(5);
        long start = System.nanoTime();
        Crawler.crawl(40, 4, perPage, lines::add);
        long elapsed = System.nanoTime() - start;

        Set<String> expected = IntStream.range(0, 40).mapToObj(i -> "finish parse " + i).collect(Collectors.toSet());
        assertEquals(40, lines.size(), "one line per page");
        assertEquals(expected, Set.copyOf(lines));
        // At most 4 pages at once, each sleeping at least 5 ms: 40 pages take at least 10 rounds.
        assertTrue(elapsed >= perPage.multipliedBy(10).toNanos(), "took only " + elapsed + " ns");
    }

    @Test
    void fanOutFanInCountsTheWordsOfEveryDocument() throws InterruptedException {
        List<String> documents = new ArrayList<>();
        for (int words = 1; words <= 50; words++) {
            documents.add(String.join(" ", Collections.nCopies(words, "go")));
        }
        assertEquals(50 * 51 / 2, FanOutFanIn.countWords(documents));
        assertEquals(0, FanOutFanIn.countWords(List.of()));
    }

    @Test
    void fetchAllReturnsTheBodiesInOrderWithinTheLimitAndFailsFast() throws Exception {
        List<String> urls = IntStream.range(0, 30).mapToObj(i -> "u" + i).toList();
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<String> bodies = FetchAll.fetchAll(urls, 3, url -> {
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            Thread.yield();
            now.decrementAndGet();
            return "body of " + url;
        });
        assertEquals(urls.stream().map(u -> "body of " + u).toList(), bodies);
        assertTrue(most.get() <= 3, most.get() + " fetches at once");

        IllegalStateException down = new IllegalStateException("u7 is down");
        ExecutionException e = assertThrows(ExecutionException.class, () -> FetchAll.fetchAll(urls, 3, url -> {
            if (url.equals("u7")) {
                throw down;
            }
            return url;
        }));
        assertSame(down, e.getCause());
    }

    @Test
    void lazyConfigIsLoadedOnceByConcurrentRequestsAndNotBeforeTheFirst() throws InterruptedException {
        LazyConfig service = new LazyConfig("endpoint=http://localhost:8080\ntimeout=PT3S\n");
        assertEquals(0, service.loads());

        LazyConfig.serveConcurrently(service, 16);

        assertEquals(1, service.loads());
        assertEquals(new LazyConfig.Config("http://localhost:8080", Duration.ofSeconds(3)), service.config());
        assertSame(service.config(), service.config());
    }

    @Test
    void lazyConfigThatFailsToLoadThrowsTheSameExceptionOnEveryCall() {
        LazyConfig service = new LazyConfig("timeout=soon\n");

        DateTimeParseException first = assertThrows(DateTimeParseException.class, service::config);
        assertSame(first, assertThrows(DateTimeParseException.class, service::config));
        assertEquals(1, service.loads(), "a failed load is not retried");
    }

    @Test
    void boundedBufferDeliversEveryItemOfEveryProducer() throws InterruptedException {
        assertEquals(3L * (200 * 201 / 2), BoundedBuffer.produceAndConsume(3, 200, 2));
    }

    @Test
    void boundedBufferIsFirstInFirstOut() throws InterruptedException {
        BoundedBuffer<String> buffer = new BoundedBuffer<>(2);
        buffer.put("a");
        buffer.put("b");
        assertEquals(2, buffer.size());
        assertEquals("a", buffer.take());
        assertEquals("b", buffer.take());
        assertEquals(0, buffer.size());
    }

    @Test
    void parseNumbersHandsEveryFailureToThePanicHandlerAndKeepsGoing() throws Exception {
        ParseNumbers.Result result = ParseNumbers.parse(List.of("1", "2", "x", "4", "", "10"), 2);

        assertEquals(17, result.sum());
        assertEquals(2, result.failures().size());
        result.failures().forEach(f -> assertInstanceOf(NumberFormatException.class, f));
        assertAll(
                () -> assertEquals(4, result.stats().completed()),
                () -> assertEquals(2, result.stats().failed()),
                () -> assertEquals(0, result.stats().rejected()));
    }

    @Test
    void parallelSubmittersRunEveryTaskOnce() throws InterruptedException {
        assertEquals(4 * 500, ParallelSubmitters.submit(4, 500, 2, 3));
    }

    @Test
    void goPortPrintsBothTasksThenExit() throws InterruptedException {
        Queue<String> lines = new ConcurrentLinkedQueue<>();
        GoPort.run(Duration.ofMillis(1), lines::add);

        List<String> printed = List.copyOf(lines);
        assertEquals(3, printed.size(), printed::toString);
        assertEquals(Set.of("1 sec later", "2 sec later"), Set.copyOf(printed.subList(0, 2)));
        assertEquals("exit", printed.get(2));
    }

    @Test
    void theSimplePoolRunsEveryTaskAddedAndSurvivesAThrowingOne() throws Exception {
        SimplePool pool = new SimplePool(4);
        AtomicInteger done = new AtomicInteger();
        pool.add(() -> {
            throw new IllegalStateException("a failing task");
        });
        for (int i = 0; i < 100; i++) {
            pool.add(done::incrementAndGet);
        }
        pool.run();
        assertEquals(100, done.get());
    }

    @Test
    void thePipelineSumsTheSquaresThroughThreeWorkers() {
        List<Integer> numbers = IntStream.rangeClosed(1, 100).boxed().toList();
        assertEquals(338_350, Pipeline.sumOfSquares(numbers));
    }

    @Test
    void streamingResultsGivesEveryResultAsItCompletesThenEnds() {
        CountDownLatch slowMayFinish = new CountDownLatch(1);
        List<String> seen = new ArrayList<>();
        for (String result : StreamingResults.results(List.of("slow", "fast"), input -> {
            if (input.equals("slow")) {
                try {
                    assertTrue(slowMayFinish.await(20, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            return input;
        })) {
            seen.add(result);
            slowMayFinish.countDown(); // the fast result came while the slow job still ran
        }
        assertEquals(List.of("fast", "slow"), seen);
    }

    @Test
    void oneCloseOfTheDoneChannelStopsEveryWorker() throws Exception {
        // a budget in which two new virtual threads take a job on a loaded CI machine (20 ms took none once)
        long total = Cancellation.feedFor(Duration.ofMillis(200));
        assertTrue(total > 0, "no job was taken");
    }
}
