package io.ants4j.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ports of ants' {@code worker_stack_test.go} and {@code worker_loop_queue_test.go}. */
class WorkerQueueTest {

    private static Worker worker(long lastUsed) {
        Worker w = new Worker(null, Worker.EMPTY);
        w.lastUsed = lastUsed;
        return w;
    }

    @Test
    void stackIsLifo() {
        WorkerStack q = new WorkerStack(1);
        assertTrue(q.isEmpty());
        assertNull(q.detach());
        Worker a = worker(1);
        Worker b = worker(2);
        Worker c = worker(3);
        q.insert(a);
        q.insert(b);
        q.insert(c);
        assertEquals(3, q.len());
        assertSame(c, q.detach());
        assertSame(b, q.detach());
        assertSame(a, q.detach());
        assertNull(q.detach());
    }

    @Test
    void stackRefreshCutsExpiredPrefixByBinarySearch() {
        for (int n = 0; n < 40; n++) {
            for (int expired = 0; expired <= n; expired++) {
                WorkerStack q = new WorkerStack();
                List<Worker> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Worker w = worker(i * 10L);
                    all.add(w);
                    q.insert(w);
                }
                long cutoff = expired * 10L - 5; // workers 0 .. expired-1 have lastUsed <= cutoff
                List<Worker> out = new ArrayList<>();
                q.refresh(cutoff, out);
                assertEquals(all.subList(0, expired), out, "n=" + n + " expired=" + expired);
                assertEquals(n - expired, q.len());
                for (int i = n - 1; i >= expired; i--) {
                    assertSame(all.get(i), q.detach());
                }
                assertTrue(q.isEmpty());
            }
        }
    }

    @Test
    void stackRefreshWithEqualStampIsExpired() {
        WorkerStack q = new WorkerStack();
        q.insert(worker(100));
        q.insert(worker(200));
        List<Worker> out = new ArrayList<>();
        q.refresh(100, out);
        assertEquals(1, out.size());
        assertEquals(1, q.len());
    }

    @Test
    void loopQueueIsFifoAndBounded() {
        LoopQueue q = new LoopQueue(3);
        assertNull(q.detach());
        Worker a = worker(1);
        Worker b = worker(2);
        Worker c = worker(3);
        assertTrue(q.insert(a));
        assertTrue(q.insert(b));
        assertTrue(q.insert(c));
        assertFalse(q.insert(worker(4)), "full");
        assertEquals(3, q.len());
        assertSame(a, q.detach());
        Worker d = worker(5);
        assertTrue(q.insert(d)); // wraps around
        assertSame(b, q.detach());
        assertSame(c, q.detach());
        assertSame(d, q.detach());
        assertTrue(q.isEmpty());
    }

    @Test
    void loopQueueRefreshAcrossTheWrap() {
        for (int shift = 0; shift < 7; shift++) {
            for (int expired = 0; expired <= 7; expired++) {
                LoopQueue q = new LoopQueue(7);
                for (int i = 0; i < shift; i++) { // move head to slot `shift`
                    q.insert(worker(-1));
                    q.detach();
                }
                List<Worker> all = new ArrayList<>();
                for (int i = 0; i < 7; i++) {
                    Worker w = worker(i * 10L);
                    all.add(w);
                    assertTrue(q.insert(w));
                }
                List<Worker> out = new ArrayList<>();
                q.refresh(expired * 10L - 5, out);
                assertEquals(all.subList(0, expired), out, "shift=" + shift + " expired=" + expired);
                assertEquals(7 - expired, q.len());
                for (int i = 0; i < expired; i++) {
                    assertTrue(q.insert(worker(100 + i)), "freed slots are reusable");
                }
                for (int i = expired; i < 7; i++) {
                    assertSame(all.get(i), q.detach());
                }
            }
        }
    }

    /** The newest run of workers stamped {@code stale} (n of them, after older ones) gets {@code raised}. */
    @Test
    void raiseStampsRaisesOnlyTheNewestRunOfTheStaleStamp() {
        for (int shift = 0; shift < 6; shift++) {
            for (int n = 0; n <= 3; n++) {
                List<WorkerQueue> queues = List.of(new WorkerStack(1), new LoopQueue(6));
                for (WorkerQueue q : queues) {
                    for (int i = 0; i < shift; i++) { // move a ring's head to slot `shift`
                        q.insert(worker(-1));
                        q.detach();
                    }
                    List<Worker> older = List.of(worker(10), worker(20), worker(30));
                    List<Worker> newest = new ArrayList<>();
                    older.forEach(q::insert);
                    for (int i = 0; i < n; i++) {
                        Worker w = worker(40);
                        newest.add(w);
                        q.insert(w);
                    }
                    q.raiseStamps(40, 95);
                    q.raiseStamps(30, 99); // 30 is no longer the newest stamp unless n == 0
                    String where = q.getClass().getSimpleName() + " shift=" + shift + " n=" + n;
                    for (Worker w : newest) {
                        assertEquals(95, w.lastUsed, where);
                    }
                    assertEquals(10, older.get(0).lastUsed, where);
                    assertEquals(20, older.get(1).lastUsed, where);
                    assertEquals(n == 0 ? 99 : 30, older.get(2).lastUsed, where);
                    List<Worker> out = new ArrayList<>();
                    q.refresh(20, out);
                    assertEquals(older.subList(0, 2), out, where + ": still sorted");
                }
            }
        }
    }
}
