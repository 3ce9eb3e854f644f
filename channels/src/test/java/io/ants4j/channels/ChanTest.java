package io.ants4j.channels;

import static io.ants4j.channels.Threads.awaitBlocked;
import static io.ants4j.channels.Threads.start;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The contracts of {@link Chan} that Go's tests do not state: misuse, interrupts, timeouts, order of waiters. */
class ChanTest {
    @Test
    void aNegativeCapacityIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Chan<>(-1));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aNullValueIsRefused(int cap) {
        Chan<Integer> c = new Chan<>(cap);
        assertThrows(NullPointerException.class, () -> c.send(null));
        assertThrows(NullPointerException.class, () -> c.offer(null));
        assertThrows(NullPointerException.class, () -> c.offer(null, 1, MILLISECONDS));
        assertThrows(NullPointerException.class, () -> c.onSend(null, () -> { }));
        assertEquals(0, c.len());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aSendOnAClosedChannelThrowsAndASecondCloseToo(int cap) {
        Chan<Integer> c = new Chan<>(cap);
        c.close();
        assertTrue(c.isClosed());
        assertThrows(ChanClosedException.class, () -> c.send(1));
        assertThrows(ChanClosedException.class, () -> c.offer(1));
        assertThrows(ChanClosedException.class, () -> c.offer(1, 1, MILLISECONDS));
        assertThrows(ChanClosedException.class, () -> Select.select(c.onSend(1, () -> { })));
        assertThrows(ChanClosedException.class, c::close);
        assertNull(c.poll());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aSenderWaitingWhenTheChannelClosesThrowsAndSendsNothing(int cap) throws Exception {
        Chan<Integer> c = new Chan<>(cap);
        for (int i = 0; i < cap; i++) {
            c.send(-1);
        }
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Threads.Failing sender = start(() -> {
            try {
                c.send(1);
            } catch (ChanClosedException e) {
                thrown.set(e);
            }
        });
        awaitBlocked(sender.thread);
        c.close();
        sender.join();
        assertInstanceOf(ChanClosedException.class, thrown.get());
        for (int i = 0; i < cap; i++) {
            assertEquals(-1, c.receive());
        }
        assertNull(c.receive());
    }

    @Test
    void aSelectSendCaseWaitingWhenTheChannelClosesThrows() throws Exception {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Threads.Failing selector = start(() -> {
            try {
                Select.select(other.onReceive(v -> { }), c.onSend(1, () -> { }));
            } catch (ChanClosedException e) {
                thrown.set(e);
            }
        });
        awaitBlocked(selector.thread);
        c.close();
        selector.join();
        assertInstanceOf(ChanClosedException.class, thrown.get());
        assertTrue(other.offer(5) == false, "the select left a receiver behind on the other channel");
    }

    @Test
    void aSelectReceiveCaseOfAClosedChannelGetsNull() throws Exception {
        Chan<Integer> c = new Chan<>();
        c.close();
        AtomicReference<Object> got = new AtomicReference<>("unset");
        assertEquals(0, Select.select(c.onReceive(got::set)));
        assertNull(got.get());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void anInterruptOnEntryThrowsAndNothingIsDone(int cap) throws Exception {
        Chan<Integer> c = new Chan<>(cap);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> c.send(1));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> c.offer(1, 1, MILLISECONDS));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, c::receive);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> c.poll(1, MILLISECONDS));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> Select.select(c.onReceive(v -> { })));
        assertFalse(Thread.interrupted());
        assertEquals(0, c.len());
        assertNull(c.poll());
    }

    @Test
    void aSelectWithAnOtherwiseCaseIgnoresAnInterrupt() throws Exception {
        Chan<Integer> c = new Chan<>();
        Thread.currentThread().interrupt();
        try {
            assertEquals(1, Select.select(c.onReceive(v -> { }), Select.otherwise(() -> { })));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anInterruptedSenderLeavesHavingSentNothing() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Threads.Failing sender = start(() -> {
            try {
                c.send(1);
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        awaitBlocked(sender.thread);
        sender.thread.interrupt();
        sender.join();
        assertInstanceOf(InterruptedException.class, thrown.get());
        assertNull(c.poll(), "the interrupted sender's value was received");
    }

    @Test
    void anInterruptedReceiverLeavesAndTheValueGoesToTheNext() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Threads.Failing first = start(() -> {
            try {
                c.receive();
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        awaitBlocked(first.thread);
        AtomicReference<Integer> got = new AtomicReference<>();
        Threads.Failing second = start(() -> got.set(c.receive()));
        awaitBlocked(second.thread);
        first.thread.interrupt();
        first.join();
        assertInstanceOf(InterruptedException.class, thrown.get());
        c.send(7);
        second.join();
        assertEquals(7, got.get());
    }

    @Test
    void anInterruptedSelectLeavesNoWaiterBehind() throws Exception {
        Chan<Integer> a = new Chan<>();
        Chan<Integer> b = new Chan<>();
        Threads.Failing selector = start(() -> {
            try {
                Select.select(a.onReceive(v -> { }), b.onSend(1, () -> { }));
            } catch (InterruptedException expected) {
                return;
            }
            throw new AssertionError("the select was not interrupted");
        });
        awaitBlocked(selector.thread);
        selector.thread.interrupt();
        selector.join();
        assertFalse(a.offer(1), "the select left a receiver on a");
        assertNull(b.poll(), "the select left a sender on b");
    }

    @Test
    void timedOperationsTimeOutHavingDoneNothing() throws Exception {
        Chan<Integer> c = new Chan<>();
        long before = System.nanoTime();
        assertFalse(c.offer(1, 20, MILLISECONDS));
        assertNull(c.poll(20, MILLISECONDS));
        assertTrue(System.nanoTime() - before >= MILLISECONDS.toNanos(40));
        assertNull(c.poll(), "the timed-out sender's value was left");
        assertFalse(c.offer(2), "the timed-out receiver was left");
        assertFalse(c.offer(1, 0, NANOSECONDS));
        assertNull(c.poll(-1, MILLISECONDS));
    }

    @Test
    void aTimedReceiveGetsAValueSentWhileItWaits() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Integer> got = new AtomicReference<>();
        Threads.Failing receiver = start(() -> got.set(c.poll(20, java.util.concurrent.TimeUnit.SECONDS)));
        awaitBlocked(receiver.thread);
        c.send(3);
        receiver.join();
        assertEquals(3, got.get());
    }

    /** Blocked senders are served first come, first served, and their values come out in that order. */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void blockedSendersAreServedInArrivalOrder(int cap) throws Exception {
        Chan<Integer> c = new Chan<>(cap);
        for (int i = 0; i < cap; i++) {
            c.send(-1);
        }
        List<Threads.Failing> senders = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            final int v = i;
            Threads.Failing s = start(() -> c.send(v));
            awaitBlocked(s.thread);
            senders.add(s);
        }
        for (int i = 0; i < cap; i++) {
            assertEquals(-1, c.receive());
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(i, c.receive());
        }
        for (Threads.Failing s : senders) {
            s.join();
        }
    }

    /** Blocked receivers are served first come, first served. */
    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void blockedReceiversAreServedInArrivalOrder(int cap) throws Exception {
        Chan<Integer> c = new Chan<>(cap);
        Chan<Integer> order = new Chan<>(5);
        List<Threads.Failing> receivers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            final int me = i;
            Threads.Failing r = start(() -> {
                int v = c.receive();
                assertEquals(me, v, "receiver " + me + " got " + v);
                order.send(me);
            });
            awaitBlocked(r.thread);
            receivers.add(r);
        }
        for (int i = 0; i < 5; i++) {
            c.send(i);
        }
        for (Threads.Failing r : receivers) {
            r.join();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3})
    void theIteratorReceivesUntilClosedAndDrained(int cap) throws Exception {
        Chan<Integer> c = new Chan<>(cap);
        Threads.Failing sender = start(() -> {
            for (int i = 0; i < 10; i++) {
                c.send(i);
            }
            c.close();
        });
        int expected = 0;
        for (int v : c) {
            assertEquals(expected++, v);
        }
        assertEquals(10, expected);
        Iterator<Integer> it = c.iterator();
        assertFalse(it.hasNext());
        assertThrows(NoSuchElementException.class, it::next);
        sender.join();
    }

    @Test
    void anIteratorInterruptedWhileItWaitsThrowsCancellationWithTheStatusSet() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> status = new AtomicReference<>();
        Threads.Failing it = start(() -> {
            try {
                c.iterator().hasNext();
            } catch (CancellationException e) {
                thrown.set(e);
                status.set(Thread.currentThread().isInterrupted());
            }
        });
        awaitBlocked(it.thread);
        it.thread.interrupt();
        it.join();
        assertInstanceOf(InterruptedException.class, thrown.get().getCause());
        assertTrue(status.get());
    }

    @Test
    void aSelectWithNoCaseBlocksUntilInterrupted() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Threads.Failing selector = start(() -> {
            try {
                Select.select(null, null);
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        awaitBlocked(selector.thread);
        selector.thread.interrupt();
        selector.join();
        assertInstanceOf(InterruptedException.class, thrown.get());
    }

    @Test
    void twoOtherwiseCasesAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> Select.select(Select.otherwise(() -> { }), Select.otherwise(() -> { })));
    }

    /** Among ready cases select picks uniformly at random: each of three is chosen a third of the time. */
    @Test
    void selectPicksUniformlyAmongReadyCases() throws Exception {
        @SuppressWarnings("unchecked")
        Chan<Integer>[] cs = new Chan[] {new Chan<>(1), new Chan<>(1), new Chan<>(1)};
        int[] count = new int[3];
        final int rounds = 3_000;
        for (int i = 0; i < rounds; i++) {
            for (Chan<Integer> c : cs) {
                c.offer(0);
            }
            count[Select.select(cs[0].onReceive(v -> { }), cs[1].onReceive(v -> { }), cs[2].onReceive(v -> { }))]++;
        }
        for (int k = 0; k < 3; k++) {
            // 1,000 expected, sd ~ 26: 800..1200 is more than 7 sd either side
            assertTrue(count[k] > 800 && count[k] < 1200, "case " + k + " chosen " + count[k] + " times of " + rounds);
        }
    }

    @Test
    void lenAndToStringReportTheBuffer() throws Exception {
        Chan<Integer> c = new Chan<>(4);
        c.send(1);
        c.send(2);
        assertEquals(2, c.len());
        assertTrue(c.toString().endsWith("[len = 2, cap = 4]"), c.toString());
        c.close();
        assertTrue(c.toString().endsWith("[len = 2, cap = 4, closed]"), c.toString());
    }

    @Test
    void aBufferedReceiveRefillsFromABlockedSenderInOrder() throws Exception {
        Chan<Integer> c = new Chan<>(2);
        c.send(0);
        c.send(1);
        Threads.Failing sender = start(() -> c.send(2));
        awaitBlocked(sender.thread);
        assertEquals(0, c.receive());
        sender.join();
        assertEquals(2, c.len());
        assertEquals(1, c.receive());
        assertEquals(2, c.receive());
    }
}
