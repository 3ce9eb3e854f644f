package io.ants4j.channels;

import static io.ants4j.channels.Threads.awaitBlocked;
import static io.ants4j.channels.Threads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Go's own channel tests (runtime/chan_test.go), ported: each test keeps the name and the checks of its Go original.
 * Where Go sleeps a millisecond to let a goroutine block, these wait until the thread is parked.
 */
class GoChanTest {
    private static final int N = 64; // Go: 200, 20 in short mode

    @Test
    void testChan() throws Exception {
        for (int chanCap = 0; chanCap < N; chanCap++) {
            final int cap = chanCap;
            {
                // Ensure that receive from empty chan blocks.
                Chan<Integer> c = new Chan<>(cap);
                AtomicBoolean recv1 = new AtomicBoolean();
                AtomicBoolean recv2 = new AtomicBoolean();
                Threads.Failing g1 = start(() -> {
                    c.receive();
                    recv1.set(true);
                });
                Threads.Failing g2 = start(() -> {
                    c.receive();
                    recv2.set(true);
                });
                awaitBlocked(g1.thread);
                awaitBlocked(g2.thread);
                assertFalse(recv1.get() || recv2.get(), "chan[" + cap + "]: receive from empty chan");
                // Ensure that non-blocking receive does not block.
                assertNull(c.poll(), "chan[" + cap + "]: receive from empty chan");
                int chosen = Select.select(c.onReceive(v -> fail("chan[" + cap + "]: receive from empty chan")),
                        Select.otherwise(() -> { }));
                assertEquals(1, chosen);
                c.send(0);
                c.send(0);
                g1.join();
                g2.join();
            }
            {
                // Ensure that send to full chan blocks.
                Chan<Integer> c = new Chan<>(cap);
                for (int i = 0; i < cap; i++) {
                    c.send(i);
                }
                AtomicBoolean sent = new AtomicBoolean();
                Threads.Failing g = start(() -> {
                    c.send(0);
                    sent.set(true);
                });
                awaitBlocked(g.thread);
                assertFalse(sent.get(), "chan[" + cap + "]: send to full chan");
                // Ensure that non-blocking send does not block.
                assertFalse(c.offer(0), "chan[" + cap + "]: send to full chan");
                assertEquals(1, Select.select(c.onSend(0, () -> fail("chan[" + cap + "]: send to full chan")),
                        Select.otherwise(() -> { })));
                c.receive();
                g.join();
            }
            {
                // Ensure that we receive 0 (here: null) from closed chan.
                Chan<Integer> c = new Chan<>(cap);
                for (int i = 0; i < cap; i++) {
                    c.send(i);
                }
                c.close();
                for (int i = 0; i < cap; i++) {
                    assertEquals(i, c.receive(), "chan[" + cap + "]");
                }
                assertNull(c.receive(), "chan[" + cap + "]");
                assertNull(c.receive(), "chan[" + cap + "]");
            }
            {
                // Ensure that close unblocks receive.
                Chan<Integer> c = new Chan<>(cap);
                Chan<Boolean> done = new Chan<>();
                Threads.Failing g = start(() -> done.send(c.receive() == null));
                awaitBlocked(g.thread);
                c.close();
                assertTrue(done.receive(), "chan[" + cap + "]: received non zero from closed chan");
                g.join();
            }
            {
                // Send 100 integers, ensure that we receive them non-corrupted in FIFO order.
                Chan<Integer> c = new Chan<>(cap);
                Threads.Failing g = start(() -> {
                    for (int i = 0; i < 100; i++) {
                        c.send(i);
                    }
                });
                for (int i = 0; i < 100; i++) {
                    assertEquals(i, c.receive(), "chan[" + cap + "]");
                }
                g.join();

                // Send 1000 integers in 4 threads, ensure that we receive what we send.
                final int p = 4;
                final int l = 1000;
                List<Threads.Failing> senders = new ArrayList<>();
                for (int s = 0; s < p; s++) {
                    senders.add(start(() -> {
                        for (int i = 0; i < l; i++) {
                            c.send(i);
                        }
                    }));
                }
                Chan<Map<Integer, Integer>> done = new Chan<>();
                List<Threads.Failing> receivers = new ArrayList<>();
                for (int r = 0; r < p; r++) {
                    receivers.add(start(() -> {
                        Map<Integer, Integer> recv = new HashMap<>();
                        for (int i = 0; i < l; i++) {
                            recv.merge(c.receive(), 1, Integer::sum);
                        }
                        done.send(recv);
                    }));
                }
                Map<Integer, Integer> recv = new HashMap<>();
                for (int r = 0; r < p; r++) {
                    done.receive().forEach((k, v) -> recv.merge(k, v, Integer::sum));
                }
                assertEquals(l, recv.size(), "chan[" + cap + "]: received values");
                for (int v : recv.values()) {
                    assertEquals(p, v, "chan[" + cap + "]: received values");
                }
                for (Threads.Failing t : senders) {
                    t.join();
                }
                for (Threads.Failing t : receivers) {
                    t.join();
                }
            }
            {
                // Test len/cap.
                Chan<Integer> c = new Chan<>(cap);
                assertEquals(0, c.len());
                assertEquals(cap, c.cap());
                for (int i = 0; i < cap; i++) {
                    c.send(i);
                }
                assertEquals(cap, c.len());
                assertEquals(cap, c.cap());
            }
        }
    }

    @Test
    void testNonblockRecvRace() throws Exception {
        for (int i = 0; i < 1000; i++) {
            Chan<Integer> c = new Chan<>(1);
            c.send(1);
            Threads.Failing g = start(() -> Select.select(c.onReceive(v -> { }),
                    Select.otherwise(() -> fail("chan is not ready"))));
            c.close();
            c.receive();
            g.join();
        }
    }

    /**
     * Select acts on the state of the channels at one moment, not over a smeared window: from the time the second
     * thread starts, one of c1 and c2 is always ready, so its non-blocking select must never take the default.
     */
    @Test
    void testNonblockSelectRace() throws Exception {
        nonblockSelectRace(false);
    }

    /** Same as testNonblockSelectRace, but close(c2) replaces c2 <- 1. */
    @Test
    void testNonblockSelectRace2() throws Exception {
        nonblockSelectRace(true);
    }

    private static void nonblockSelectRace(boolean close) throws Exception {
        Chan<Boolean> done = new Chan<>(1);
        for (int i = 0; i < 2000; i++) {
            Chan<Integer> c1 = new Chan<>(1);
            Chan<Integer> c2 = new Chan<>(close ? 0 : 1);
            c1.send(1);
            Thread g = Thread.ofPlatform().start(() -> {
                try {
                    int chosen = Select.select(c1.onReceive(v -> { }), c2.onReceive(v -> { }),
                            Select.otherwise(() -> { }));
                    done.send(chosen != 2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            if (close) {
                c2.close();
            } else {
                c2.send(1);
            }
            c1.poll();
            assertTrue(done.poll(20, java.util.concurrent.TimeUnit.SECONDS), "no chan is ready");
            g.join(20_000);
        }
    }

    /** Send and receive on the same channel in one select neither crashes nor deadlocks, nor receives its own. */
    @Test
    void testSelfSelect() throws Exception {
        for (int chanCap : new int[] {0, 10}) {
            Chan<Integer> c = new Chan<>(chanCap);
            List<Threads.Failing> gs = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                final int me = p;
                gs.add(start(() -> {
                    for (int i = 0; i < 1000; i++) {
                        Select.Case send = c.onSend(me, () -> { });
                        Select.Case receive = c.onReceive(v -> {
                            if (chanCap == 0 && v == me) {
                                throw new AssertionError("self receive");
                            }
                        });
                        if (me == 0 || i % 2 == 0) {
                            Select.select(send, receive);
                        } else {
                            Select.select(receive, send);
                        }
                    }
                }));
            }
            for (Threads.Failing g : gs) {
                g.join();
            }
        }
    }

    /** Plain sends and receives and two selects over four channels interact chaotically without a deadlock. */
    @Test
    void testSelectStress() throws Exception {
        @SuppressWarnings("unchecked")
        Chan<Integer>[] c = new Chan[] {new Chan<>(), new Chan<>(), new Chan<>(2), new Chan<>(3)};
        final int n = 10_000; // Go: 1e5, 1e4 in short mode
        List<Threads.Failing> gs = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            Chan<Integer> ck = c[k];
            gs.add(start(() -> {
                for (int i = 0; i < n; i++) {
                    ck.send(0);
                }
            }));
            gs.add(start(() -> {
                for (int i = 0; i < n; i++) {
                    ck.receive();
                }
            }));
        }
        gs.add(start(() -> {
            int[] count = new int[4];
            Select.Case[] cases = new Select.Case[4];
            for (int k : new int[] {3, 2, 0, 1}) {
                final int kk = k;
                cases[k] = c[k].onSend(0, () -> count[kk]++);
            }
            for (int i = 0; i < 4 * n; i++) {
                int k = Select.select(cases);
                if (count[k] == n) {
                    cases[k] = null;
                }
            }
        }));
        gs.add(start(() -> {
            int[] count = new int[4];
            Select.Case[] cases = new Select.Case[4];
            for (int k = 0; k < 4; k++) {
                final int kk = k;
                cases[k] = c[k].onReceive(v -> count[kk]++);
            }
            for (int i = 0; i < 4 * n; i++) {
                int k = Select.select(cases);
                if (count[k] == n) {
                    cases[k] = null;
                }
            }
        }));
        for (Threads.Failing g : gs) {
            g.join();
        }
    }

    @Test
    void testChanSendInterface() throws Exception {
        Object m = new Object();
        Chan<Object> c = new Chan<>(1);
        c.send(m);
        Select.select(c.onSend(m, () -> { }), Select.otherwise(() -> { }));
        Select.select(c.onSend(m, () -> { }), c.onSend(new Object(), () -> { }), Select.otherwise(() -> { }));
    }

    /** A select of two ready send cases picks each often: pseudo-random, not the first. */
    @Test
    void testPseudoRandomSend() throws Exception {
        final int n = 100;
        for (int chanCap : new int[] {0, n}) {
            Chan<Integer> c = new Chan<>(chanCap);
            int[] l = new int[n];
            Threads.Failing g = start(() -> {
                for (int i = 0; i < n; i++) {
                    Thread.yield();
                    l[i] = c.receive();
                }
            });
            for (int i = 0; i < n; i++) {
                Select.select(c.onSend(1, () -> { }), c.onSend(0, () -> { }));
            }
            g.join();
            int n0 = 0;
            int n1 = 0;
            for (int i : l) {
                n0 += (i + 1) % 2;
                n1 += i;
            }
            assertTrue(n0 > n / 10 && n1 > n / 10,
                    "want pseudorandom, got " + n0 + " zeros and " + n1 + " ones (chan cap " + chanCap + ")");
        }
    }

    /** Workers ranging over a channel, results through another, closes in order: every value seen once. */
    @Test
    void testMultiConsumer() throws Exception {
        final int nwork = 23;
        final int niter = 27_182; // Go: 271828
        int[] pn = {2, 3, 7, 11, 13, 17, 19, 23, 27, 31};
        Chan<Integer> q = new Chan<>(nwork * 3);
        Chan<Integer> r = new Chan<>(nwork * 3);
        List<Threads.Failing> workers = new ArrayList<>();
        for (int i = 0; i < nwork; i++) {
            final int w = i;
            workers.add(start(() -> {
                for (int v : q) {
                    if (pn[w % pn.length] == v) {
                        Thread.yield(); // mess with the fifo-ish nature of range
                    }
                    r.send(v);
                }
            }));
        }
        AtomicInteger expect = new AtomicInteger();
        Threads.Failing feeder = start(() -> {
            int e = 0;
            for (int i = 0; i < niter; i++) {
                int v = pn[i % pn.length];
                e += v;
                q.send(v);
            }
            expect.set(e);
            q.close(); // no more work
            for (Threads.Failing w : workers) {
                w.join(); // workers done
            }
            r.close(); // ... so there can be no more results
        });
        int count = 0;
        int sum = 0;
        for (int v : r) {
            count++;
            sum += v;
        }
        feeder.join();
        assertEquals(niter, count);
        assertEquals(expect.get(), sum);
    }

    /** A thread queued on the same channel by two cases of one select, then woken by a third, leaves c intact. */
    @Test
    void testSelectDuplicateChannel() throws Exception {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> d = new Chan<>();
        Chan<Integer> e = new Chan<>();
        Threads.Failing a = start(() -> {
            Select.select(c.onReceive(v -> { }), c.onReceive(v -> { }), d.onReceive(v -> { }));
            e.send(9);
        });
        awaitBlocked(a.thread); // A is queued first on c
        Threads.Failing b = start(c::receive);
        awaitBlocked(b.thread); // B is queued on c after A
        d.send(7); // wakes A, which dequeues itself from c
        assertEquals(9, e.receive()); // A is done
        c.send(8); // wakes B: c's queue of receivers is intact
        a.join();
        b.join();
    }
}
