package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.WAIT;
import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.eventually;
import static io.ants4j.pool.TestSupport.occupy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.SettingDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JFR events of the pools: records a pool that blocks, rejects for every reason, fails a task, is tuned
 * and released, reads the recording back with {@link RecordingFile} and checks each event and its fields.
 */
class PoolEventsTest {

    @TempDir
    Path dir;

    @Test
    void recordsEveryEventWithItsFields() throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("ants4j.SubmitBlocked").withThreshold(Duration.ZERO);
            recording.enable("ants4j.SubmitRejected");
            recording.enable("ants4j.TaskFailed");
            recording.enable("ants4j.PoolTuned");
            recording.enable("ants4j.PoolReleased");
            recording.enable("ants4j.PoolStatistics").with("period", "endChunk");
            recording.start();
            exercise();
            recording.stop();
            Path file = dir.resolve("pool.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        }

        List<RecordedEvent> rejected = of(events, "ants4j.SubmitRejected", "jfr-pool");
        List<String> reasons = new ArrayList<>();
        for (RecordedEvent e : rejected) {
            reasons.add(e.getString("reason"));
        }
        reasons.sort(null); // a recording orders events by thread buffer, not by time
        assertEquals(List.of("closed", "interrupted", "overload", "timeout"), reasons);

        List<RecordedEvent> blocked = of(events, "ants4j.SubmitBlocked", "jfr-pool");
        assertEquals(2, blocked.size(), "the interrupted submitter and the one that got the worker waited");
        for (RecordedEvent e : blocked) {
            assertTrue(e.getDuration().toNanos() > 0, e.toString());
            assertTrue(e.getStackTrace() != null, "where the submitter waited");
        }

        RecordedEvent failed = one(events, "ants4j.TaskFailed", "jfr-pool");
        assertEquals(IllegalStateException.class.getName(), failed.getString("throwableClass"));
        assertEquals("boom", failed.getString("message"));

        RecordedEvent tuned = one(events, "ants4j.PoolTuned", "jfr-pool");
        assertEquals(3, tuned.getInt("size"));
        assertEquals(1, tuned.getInt("oldCapacity"));
        assertEquals(3, tuned.getInt("newCapacity"));

        RecordedEvent released = one(events, "ants4j.PoolReleased", "jfr-pool");
        assertFalse(released.getBoolean("interrupt"));
        assertEquals(0, released.getInt("running"), "release stops the idle worker at once");
        assertTrue(one(events, "ants4j.PoolReleased", "jfr-now").getBoolean("interrupt"), "shutdownNow");

        RecordedEvent stats = one(events, "ants4j.PoolStatistics", "jfr-stats");
        assertEquals(4, stats.getInt("capacity"));
        assertEquals(stats.getInt("running"), stats.getInt("idle"), "every worker idle");
        assertEquals(0, stats.getInt("waiting"));
        assertEquals(3, stats.getLong("submitted"));
        assertEquals(2, stats.getLong("completed"));
        assertEquals(1, stats.getLong("failed"));
        assertEquals(1, stats.getLong("rejected"));
        assertEquals(0, stats.getLong("blockedSubmits"));
        assertEquals(Duration.ZERO, stats.getDuration("blockedTime"));
        assertEquals(List.of(), of(events, "ants4j.PoolStatistics", "jfr-pool"), "a released pool reports none");
    }

    /**
     * {@code ants4j.PoolTuned}: "the requested size and the capacity before and after", of that tune: with two
     * threads tuning one pool and one multi-pool at once, each to sizes of its own, the events chain (every
     * event's old capacity is the new capacity of the one before it, or the first capacity), so no two report the
     * same capacity before.
     */
    @Test
    void concurrentTunesRecordTheCapacityEachOneChanged() throws Exception {
        int tunes = 2_000;
        Pool pool = Pool.newPool(1, PoolOptions.builder().name("jfr-tuned").build());
        MultiPool multi = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("jfr-tuned-multi").build());
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("ants4j.PoolTuned");
            recording.start();
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> tuners = new ArrayList<>();
            for (int parity = 0; parity < 2; parity++) {
                int first = 2 + parity; // one thread tunes to even sizes, the other to odd ones: all distinct
                tuners.add(Thread.ofPlatform().start(() -> {
                    await(start);
                    for (int i = 0; i < tunes; i++) {
                        pool.tune(first + 2 * i);
                        multi.tune(first + 2 * i);
                    }
                }));
            }
            start.countDown();
            for (Thread t : tuners) {
                assertTrue(t.join(WAIT), "the tuners finish");
            }
            recording.stop();
            Path file = dir.resolve("tuned.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        } finally {
            pool.release();
            multi.release();
        }
        assertChained(of(events, "ants4j.PoolTuned", "jfr-tuned"), 1, 2 * tunes);
        assertChained(of(events, "ants4j.PoolTuned", "jfr-tuned-multi"), 2, 2 * tunes);
    }

    /** The tune events of one pool form one chain of capacities from {@code initial}. */
    private static void assertChained(List<RecordedEvent> tuned, int initial, int count) {
        assertEquals(count, tuned.size(), "one event per tune");
        java.util.Map<Integer, Integer> next = new java.util.HashMap<>();
        for (RecordedEvent e : tuned) {
            Integer clash = next.put(e.getInt("oldCapacity"), e.getInt("newCapacity"));
            assertNull(clash, () -> "two tunes report capacity " + e.getInt("oldCapacity") + " before them: to "
                    + clash + " and to " + e.getInt("newCapacity"));
        }
        int capacity = initial;
        for (int i = 0; i < count; i++) {
            Integer after = next.get(capacity);
            int from = capacity;
            assertTrue(after != null, () -> "no tune from capacity " + from);
            capacity = after;
        }
    }

    /** Drives the pools whose events the recording should hold. */
    private static void exercise() throws Exception {
        Pool pool = Pool.newPool(1, PoolOptions.builder().name("jfr-pool").maxBlockingTasks(1)
                .panicHandler(t -> { }).build());
        CountDownLatch go = occupy(pool::execute, 1);
        assertFalse(pool.tryExecute(() -> { }, Duration.ZERO)); // timeout
        AtomicReference<Throwable> firstWaiter = new AtomicReference<>();
        Thread interrupted = Thread.ofPlatform().start(() -> {
            try {
                pool.execute(() -> { });
            } catch (Throwable t) {
                firstWaiter.set(t);
            }
        });
        eventually("a submitter waits", () -> pool.waiting() == 1, pool::toString);
        assertThrows(PoolOverloadException.class, () -> pool.execute(() -> { })); // overload
        interrupted.interrupt(); // interrupted
        interrupted.join(WAIT);
        assertInstanceOf(RejectedExecutionException.class, firstWaiter.get());
        CountDownLatch ran = new CountDownLatch(1);
        Thread waiter = Thread.ofPlatform().start(() -> pool.execute(ran::countDown));
        eventually("a submitter waits", () -> pool.waiting() == 1, pool::toString);
        go.countDown();
        await(ran);
        waiter.join(WAIT);
        eventually("the worker is idle", () -> pool.idle() == 1, pool::toString);
        pool.execute(() -> {
            throw new IllegalStateException("boom");
        });
        eventually("the failure counted", () -> pool.stats().failed() == 1, pool::toString);
        pool.tune(3);
        eventually("the worker parked on the idle queue", () -> Probe.idle(pool) == 1, pool::toString);
        pool.release();
        assertThrows(PoolClosedException.class, () -> pool.execute(() -> { })); // closed
        assertTrue(pool.awaitTermination(WAIT.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS));

        MultiPool now = MultiPool.newMultiPool(2, 1, LoadBalancing.ROUND_ROBIN,
                PoolOptions.builder().name("jfr-now").build());
        now.shutdownNow();

        MultiPoolWithFunc<Integer> stats = MultiPoolWithFunc.newMultiPool(2, 2, i -> {
            if (i < 0) {
                throw new IllegalArgumentException("negative");
            }
        }, LoadBalancing.ROUND_ROBIN, PoolOptions.builder().name("jfr-stats").panicHandler(t -> { }).build());
        stats.invoke(1);
        stats.invoke(2);
        stats.invoke(-1);
        eventually("all ran", () -> stats.stats().completed() + stats.stats().failed() == 3, stats::toString);
        eventually("all idle", () -> stats.idle() == stats.running(), stats::toString);
        stats.release();
        assertThrows(PoolClosedException.class, () -> stats.invoke(0));
        stats.reboot(); // open again when the recording ends, and back in the statistics
    }

    private static List<RecordedEvent> of(List<RecordedEvent> events, String type, String pool) {
        List<RecordedEvent> found = new ArrayList<>();
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(type) && pool.equals(e.getString("pool"))) {
                assertEquals(List.of("ants4j"), e.getEventType().getCategoryNames(), type);
                found.add(e);
            }
        }
        return found;
    }

    private static RecordedEvent one(List<RecordedEvent> events, String type, String pool) {
        List<RecordedEvent> found = of(events, type, pool);
        assertEquals(1, found.size(), type + " of " + pool + ": " + found);
        return found.get(0);
    }

    /**
     * A submission refused by an {@code Error} (the JDK's "unable to create native thread") from the thread
     * factory, or from {@code Thread.start()}, is counted and recorded with reason {@code error}.
     */
    @Test
    void recordsARejectionByAnErrorFromTheThreadFactoryOrThreadStart() throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("ants4j.SubmitRejected");
            recording.start();
            ThreadFactory throwing = r -> {
                throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
            };
            ThreadFactory unstartable = r -> new Thread(r) {
                @Override
                public void start() {
                    throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
                }
            };
            for (ThreadFactory f : List.of(throwing, unstartable)) {
                Pool pool = Pool.newPool(1, PoolOptions.builder().name("jfr-error").threadFactory(f)
                        .disablePurge(true).build());
                assertThrows(OutOfMemoryError.class, () -> pool.execute(() -> { }));
                assertEquals(1, pool.stats().rejected(), "the refused submission is counted");
                assertEquals(0, pool.running(), "its worker slot is given back");
                pool.release();
            }
            MultiPoolWithFunc<Object> multi = MultiPoolWithFunc.newMultiPool(2, 1, x -> { },
                    LoadBalancing.ROUND_ROBIN, PoolOptions.builder().name("jfr-error").threadFactory(throwing)
                            .disablePurge(true).build());
            assertThrows(OutOfMemoryError.class, () -> multi.invoke("x"));
            assertThrows(OutOfMemoryError.class, () -> multi.tryInvoke("y", Duration.ZERO));
            assertEquals(2, multi.stats().rejected(), "counted once per submission, the timed one too");
            multi.release();
            recording.stop();
            Path file = dir.resolve("error.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        }
        List<String> reasons = new ArrayList<>();
        for (RecordedEvent e : of(events, "ants4j.SubmitRejected", "jfr-error")) {
            reasons.add(e.getString("reason"));
        }
        assertEquals(List.of("error", "error", "error", "error"), reasons);
    }

    @Test
    void statisticsComeEverySecondByDefault() {
        try (Pool pool = Pool.newPool(1)) { // installs the hook
            EventType type = null;
            try (Recording recording = new Recording()) { // initializes the recorder, which registers the event
                recording.start();
                for (EventType t : FlightRecorder.getFlightRecorder().getEventTypes()) {
                    if (t.getName().equals("ants4j.PoolStatistics")) {
                        type = t;
                    }
                }
            }
            assertTrue(type != null, "the statistics event is registered once a recorder runs");
            String period = null;
            for (SettingDescriptor s : type.getSettingDescriptors()) {
                if (s.getName().equals("period")) {
                    period = s.getDefaultValue();
                }
            }
            assertEquals("1 s", period);
            assertTrue(pool.name().startsWith("ants4j-pool-"));
        }
    }

    @Test
    void aPoolNeverReleasedCanStillBeCollected() {
        try (Recording recording = new Recording()) {
            recording.enable("ants4j.PoolStatistics").withPeriod(Duration.ofMillis(10));
            recording.start();
            WeakReference<PoolWithFunc<Object>> ref = new WeakReference<>(
                    PoolWithFunc.newPool(2, x -> { }, PoolOptions.builder().disablePurge(true).build()));
            eventually("the pool collected", () -> {
                System.gc();
                return ref.get() == null;
            });
            assertNull(ref.get());
        }
    }
}
