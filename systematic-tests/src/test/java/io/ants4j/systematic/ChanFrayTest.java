package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static io.ants4j.systematic.FrayThreads.untilParked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ants4j.channels.Chan;
import io.ants4j.channels.ChanClosedException;
import io.ants4j.channels.Select;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Chan}: hand-offs, the buffer, close, interrupts and timeouts, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class ChanFrayTest {
    private static final int SENT = 1;
    private static final int THREW = 2;

    /**
     * Values are never lost or duplicated, and each sender's values come out in its order: two senders of two values
     * each and two receivers of two, on an unbuffered and on a buffered channel.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void everyValueIsReceivedOnceInItsSendersOrder() throws InterruptedException {
        for (int cap : new int[] {0, 1}) {
            Chan<Integer> c = new Chan<>(cap);
            List<Integer> got = new CopyOnWriteArrayList<>();
            Thread s1 = start("sender 1", () -> {
                c.send(10);
                c.send(11);
            });
            Thread s2 = start("sender 2", () -> {
                c.send(20);
                c.send(21);
            });
            Thread r1 = start("receiver 1", () -> {
                int a = c.receive();
                int b = c.receive();
                assertFalse(a / 10 == b / 10 && a > b, "one sender's values out of order: " + a + ", " + b);
                got.add(a);
                got.add(b);
            });
            Thread r2 = start("receiver 2", () -> {
                int a = c.receive();
                int b = c.receive();
                assertFalse(a / 10 == b / 10 && a > b, "one sender's values out of order: " + a + ", " + b);
                got.add(a);
                got.add(b);
            });
            join(s1, s2, r1, r2);
            assertEquals(List.of(10, 11, 20, 21), got.stream().sorted().toList(), "cap " + cap);
            assertNull(c.poll());
        }
    }

    /** A buffered channel keeps the order of completed sends across a blocked sender refilled by a receive. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aBufferedChannelKeepsTheOrderOfItsSends() throws InterruptedException {
        Chan<Integer> c = new Chan<>(1);
        Thread sender = start("sender", () -> {
            for (int i = 1; i <= 3; i++) {
                c.send(i);
            }
        });
        Thread receiver = start("receiver", () -> {
            for (int i = 1; i <= 3; i++) {
                assertEquals(i, c.receive());
            }
        });
        join(sender, receiver);
    }

    /**
     * A receive from a full buffer moves the longest-blocked sender's value in behind the others at once, so that
     * blocked sender returns with no further receive (Chan: "a send waits only while the buffer is full", "values
     * come out in the order their sends completed"). Capacity 1 holds 1; s blocks sending 2; a receive races an
     * {@code offer(9)} by a newcomer: the receive gets 1, s's send returns, the buffer then holds 2, and the newcomer
     * never finds room (the freed place is s's, in the same step). Coverage review 18, mutant CH-R: a receive from
     * the buffer that does not refill it from a blocked sender (the sender waits on beside a free place).
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aReceiveFromAFullBufferMovesTheBlockedSendersValueIn() throws InterruptedException {
        Chan<Integer> c = new Chan<>(1);
        assertTrue(c.offer(1));
        AtomicBoolean sent = new AtomicBoolean();
        Thread sender = start("blocked sender", () -> {
            c.send(2);
            sent.set(true);
        });
        untilParked(sender);
        AtomicReference<Integer> got = new AtomicReference<>();
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread receiver = start("receiver", () -> got.set(c.receive()));
        Thread newcomer = start("newcomer", () -> offered.set(c.offer(9)));
        join(receiver, newcomer);
        assertEquals(1, got.get());
        assertFalse(offered.get(), "a newcomer took the place the receive freed before the blocked sender");
        join(sender); // no other receive: the receive itself must have taken s's value
        assertTrue(sent.get());
        assertEquals(1, c.len(), "the blocked sender's value is not in the buffer");
        assertEquals(2, c.poll());
        assertNull(c.poll());
    }

    /**
     * Close racing a blocked send and a poll: the value is received and the send returns, or the send throws and
     * nothing is received; a receiver blocked at the close returns null.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeRacingABlockedSendLosesNothing() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread sender = start("sender", () -> {
            try {
                c.send(1);
                sent.set(SENT);
            } catch (ChanClosedException e) {
                sent.set(THREW);
            }
        });
        untilParked(sender);
        Thread closer = start("closer", c::close);
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(sender, closer, poller);
        if (sent.get() == SENT) {
            assertEquals(1, polled.get(), "the send returned but its value was not received");
        } else {
            assertEquals(THREW, sent.get());
            assertNull(polled.get(), "the send threw but its value was received");
        }
        assertNull(c.poll());
    }

    /**
     * Close wakes every blocked sender (Chan.close: "senders waiting now throw it"; Select: a send case "whose
     * channel is closed when the select would choose the case" throws): two senders and a select with a send case
     * block on an unbuffered channel; a close races a poll. The poll takes at most one of the three values, and that
     * sender returns normally; every other one throws ChanClosedException, the select too if its value was not
     * taken; after the close nothing is left to receive. Coverage review 18, mutant CH-C: close chaining only the
     * last sender it claims (the others claimed but never unparked): every other ChanFrayTest has at most one
     * blocked sender at a close.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeWakesEveryBlockedSender() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicInteger delivered = new AtomicInteger();
        AtomicInteger threw = new AtomicInteger();
        Thread[] senders = new Thread[3];
        for (int i = 0; i < 3; i++) {
            int v = i + 1;
            senders[i] = start("sender " + v, () -> {
                try {
                    if (v == 3) {
                        Select.select(c.onSend(v, () -> { }), other.onReceive(x -> { }));
                    } else {
                        c.send(v);
                    }
                    delivered.incrementAndGet();
                } catch (ChanClosedException e) {
                    threw.incrementAndGet();
                }
            });
            untilParked(senders[i]);
        }
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread closer = start("closer", c::close);
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(closer, poller);
        join(senders);
        assertEquals(polled.get() == null ? 0 : 1, delivered.get(), "polled " + polled.get());
        assertEquals(3 - delivered.get(), threw.get());
        assertNull(c.poll());
        assertFalse(other.offer(9), "the select left a receiver on the other channel");
    }

    /**
     * A receiver interrupted as a value is handed to it: the value goes to it (it returns it, the interrupt status
     * set) or to the next receiver; the offer always finds one of them.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aValueRacingAnInterruptedReceiverGoesToTheNext() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> first = new AtomicReference<>();
        AtomicReference<Object> second = new AtomicReference<>();
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread r1 = start("first", () -> {
            try {
                first.set(c.receive());
                FrayThreads.until("the interrupt is sent", interruptSent::get);
                assertTrue(Thread.interrupted(), "the interrupt that lost to the hand-off was not kept");
            } catch (InterruptedException e) {
                first.set(e);
            }
        });
        untilParked(r1);
        Thread r2 = start("second", () -> second.set(c.receive()));
        untilParked(r2);
        Thread interrupter = start("interrupter", () -> {
            r1.interrupt();
            interruptSent.set(true);
        });
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(c.offer(7)));
        join(interrupter, sender, r1);
        assertTrue(offered.get(), "the offer found no receiver");
        if (first.get() instanceof InterruptedException) {
            join(r2);
            assertEquals(7, second.get());
        } else {
            assertEquals(7, first.get());
            c.close();
            join(r2);
            assertNull(second.get());
        }
    }

    /** A sender interrupted as a receiver takes its value: the send returns (delivered) or throws (not delivered). */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSenderDeliversOrNot() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicInteger sent = new AtomicInteger();
        Thread sender = start("sender", () -> {
            try {
                c.send(1);
                sent.set(SENT);
            } catch (InterruptedException e) {
                sent.set(THREW);
            }
        });
        untilParked(sender);
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread interrupter = start("interrupter", sender::interrupt);
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(sender, interrupter, poller);
        assertEquals(sent.get() == SENT ? Integer.valueOf(1) : null, polled.get(), "sent = " + sent.get());
    }

    /** A timed receive racing its deadline and an offer: the offer succeeds only if the receive got the value. */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedReceiveRacingItsDeadlineLosesNoValue() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Integer> got = new AtomicReference<>();
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread receiver = start("receiver", () -> got.set(c.poll(1, TimeUnit.MILLISECONDS)));
        Thread sender = start("sender", () -> offered.set(c.offer(3)));
        join(receiver, sender);
        assertEquals(offered.get() ? Integer.valueOf(3) : null, got.get());
        assertNull(c.poll());
    }

    /** Close wakes every blocked receiver and select receive case with null, and every blocked sender throws. */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeWakesEveryWaiter() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicReference<Object> plain = new AtomicReference<>("unset");
        AtomicReference<Object> selected = new AtomicReference<>("unset");
        Thread receiver = start("receiver", () -> plain.set(c.receive()));
        Thread selector = start("selector", () -> Select.select(other.onReceive(v -> { }), c.onReceive(selected::set)));
        Thread closer = start("closer", c::close);
        join(receiver, selector, closer);
        assertNull(plain.get());
        assertNull(selected.get());
        assertFalse(other.offer(1), "the select left a receiver on the other channel");
    }

    /**
     * A timed offer blocked on a full channel as it is closed (Chan.offer(value, timeout, unit): "@throws
     * ChanClosedException if the channel is closed, or is closed while this thread waits; nothing was sent"; "false if
     * the time ran out first"): capacity 1 holds 1; a timed offer of 2 (an hour) waits, or has not yet looked, as
     * another thread closes the channel. The offer throws ChanClosedException, never returns (true or false); the
     * channel drains to 1 then null. Coverage review 25, mutant CT: Chan.send returning false for a timed send whose
     * outcome is closed (a timed offer woken by a close says "timed out"): no other Fray test closes a channel on a
     * timed offer.
     */
    @FrayTest(iterations = 200 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedOfferWaitingAtACloseThrows() throws InterruptedException {
        Chan<Integer> c = new Chan<>(1);
        assertTrue(c.offer(1));
        AtomicReference<Object> outcome = new AtomicReference<>("unset");
        Thread sender = start("timed sender", () -> {
            try {
                outcome.set(c.offer(2, 1, TimeUnit.HOURS));
            } catch (ChanClosedException e) {
                outcome.set(THREW);
            }
        });
        Thread closer = start("closer", c::close);
        join(sender, closer);
        assertEquals(THREW, outcome.get(), "a timed offer on a channel closed while it waited or before it looked");
        assertEquals(1, c.poll());
        assertNull(c.poll(), "a value went into the channel after its close");
    }

    /**
     * A timed offer racing its deadline and a poll (Chan.offer(value, timeout, unit): "true if it was sent, false if
     * the time ran out first (nothing was sent)"): the poll gets the value exactly when the offer returns true, on an
     * unbuffered channel. The twin of aTimedReceiveRacingItsDeadlineLosesNoValue for the sender's side. Coverage
     * review 19, mutant CH-T: Chan.send no longer returning false for a CANCELLED outcome (a timed-out offer says
     * sent): no other Fray test called the timed offer.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedOfferRacingItsDeadlineSaysWhetherItSent() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(c.offer(3, 1, TimeUnit.MILLISECONDS)));
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(sender, poller);
        assertEquals(offered.get() ? Integer.valueOf(3) : null, polled.get(), "offer returned " + offered.get());
        assertNull(c.poll(), "a value was left behind");
    }

    /**
     * The iterator (Go's range) interrupted while hasNext waits, racing an offer (Chan.iterator: "hasNext throws
     * CancellationException (its cause an InterruptedException) with the interrupt status set again, having received
     * nothing"): either hasNext got the value (the offer returned true) or it threw with the interrupt status set and
     * the offer found no receiver. Coverage review 19, mutant CH-I: hasNext not setting the interrupt status again: no
     * other Fray test used the iterator.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedIteratorReceivesNothingAndKeepsTheInterrupt() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> result = new AtomicReference<>();
        Thread iterating = start("iterating", () -> {
            Iterator<Integer> it = c.iterator();
            try {
                assertTrue(it.hasNext());
                result.set(it.next());
            } catch (CancellationException e) {
                assertTrue(e.getCause() instanceof InterruptedException, "cause " + e.getCause());
                result.set(Thread.currentThread().isInterrupted() ? "cancelled" : "cancelled, interrupt cleared");
            }
        });
        untilParked(iterating);
        Thread interrupter = start("interrupter", iterating::interrupt);
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(c.offer(5)));
        join(iterating, interrupter, sender);
        assertEquals(offered.get() ? (Object) 5 : "cancelled", result.get(), "offer returned " + offered.get());
    }

    /**
     * Blocked senders and blocked receivers are served in arrival order (Chan: "Senders and receivers that wait are
     * served first come, first served, and values come out in the order their sends completed"): behind a full
     * buffer of capacity 1 holding 0, two senders block in turn (1, then 2); a receiver then gets 0, 1, 2. With the
     * channel empty, two receivers block in turn; an offer then goes to the first of them, the next one to the
     * second. Coverage review 19, mutant CH-F: the channel's WaitQueue.add queueing
     * at the head (LIFO): no other Fray test has two blocked senders or receivers whose order it checks.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void blockedSendersAndReceiversAreServedInArrivalOrder() throws InterruptedException {
        Chan<Integer> c = new Chan<>(1);
        assertTrue(c.offer(0));
        Thread s1 = start("sender 1", () -> c.send(1));
        untilParked(s1);
        Thread s2 = start("sender 2", () -> c.send(2));
        untilParked(s2);
        List<Integer> got = new CopyOnWriteArrayList<>();
        Thread receiver = start("receiver", () -> {
            for (int i = 0; i < 3; i++) {
                got.add(c.receive());
            }
        });
        join(receiver, s1, s2);
        assertEquals(List.of(0, 1, 2), got, "the blocked senders' values came out of arrival order");

        AtomicReference<Integer> first = new AtomicReference<>();
        AtomicReference<Integer> second = new AtomicReference<>();
        Thread r1 = start("receiver 1", () -> first.set(c.receive()));
        untilParked(r1);
        Thread r2 = start("receiver 2", () -> second.set(c.receive()));
        untilParked(r2);
        assertTrue(c.offer(1));
        FrayThreads.until("a receiver returns", () -> first.get() != null || second.get() != null);
        assertEquals(1, first.get(), "the value went to the receiver that blocked last");
        assertTrue(c.offer(2));
        join(r1, r2);
        assertEquals(2, second.get());
    }

    /**
     * An interrupt that came before the call throws even when the operation needs no wait (Chan: "Blocking operations
     * throw InterruptedException if the thread is interrupted on entry or while it waits; a sender or receiver that is
     * interrupted [...] leaves having sent or received nothing"): a thread, once it sees the interrupt another thread
     * sent it, receives from an empty channel of capacity 1 into which a third thread offers a value, racing the
     * receive; interrupted again, it sends into a full channel of capacity 1 from which a fourth thread polls, racing
     * the send. Both throw; the offered value is still in the first channel, and the second holds nothing once its
     * value was polled. Coverage review 22, mutants CH-IE and CH-SE: Chan.receive and Chan.send without their entry
     * check (an operation whose counterpart is ready completes despite the interrupt): every other Fray test
     * interrupts a thread already parked, and ChanTest.anInterruptOnEntryThrowsAndNothingIsDone has no counterpart
     * ready (the operation queues, and its wait throws).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptOnEntryThrowsEvenWithACounterpartReady() throws InterruptedException {
        Chan<Integer> in = new Chan<>(1);
        Chan<Integer> out = new Chan<>(1);
        assertTrue(out.offer(0));
        AtomicBoolean interruptSent = new AtomicBoolean();
        Thread interrupted = start("interrupted", () -> {
            FrayThreads.until("the interrupt is sent", interruptSent::get);
            String received;
            try {
                received = "received " + in.receive();
            } catch (InterruptedException e) {
                received = "threw";
            }
            assertEquals("threw", received, "a receive interrupted on entry");
            Thread.currentThread().interrupt();
            String sent;
            try {
                out.send(2);
                sent = "sent";
            } catch (InterruptedException e) {
                sent = "threw";
            }
            assertEquals("threw", sent, "a send interrupted on entry");
        });
        Thread interrupter = start("interrupter", () -> {
            interrupted.interrupt();
            interruptSent.set(true);
        });
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(in.offer(1)));
        Thread poller = start("poller", () -> polled.set(out.poll()));
        join(interrupted, interrupter, sender, poller);
        assertTrue(offered.get());
        assertEquals(1, in.poll(), "the value offered was not left in the channel");
        assertEquals(0, polled.get());
        assertNull(out.poll(), "the interrupted send put its value in");
    }

    /**
     * A timed receive and a timed send interrupted while they wait, each racing a counterpart (Chan.poll(timeout,
     * unit) and offer(value, timeout, unit): "throws InterruptedException if the thread is interrupted on entry or
     * while it waits; nothing was received" / "nothing was sent"): a poll(5 s) on an unbuffered channel parks and is
     * interrupted while an offer comes; it returns the value (the offer returned true) or throws, the offer finding no
     * receiver, never returns null. Then an offer(2, 5 s) parks and is interrupted while a poll comes: it returns true
     * (the poll got 2) or throws (the poll got nothing), never returns false. Coverage review 22, mutant WT-I:
     * Waiter.await reporting an interrupt of a timed wait as its timeout ({@code interrupted && !timed ? INTERRUPTED :
     * CANCELLED}: the timed forms return null or false, the interrupt lost): every other Fray test interrupts an
     * untimed wait.
     */
    @FrayTest(iterations = 40 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedTimedWaitThrowsOrCompletes() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> received = new AtomicReference<>();
        Thread receiver = start("timed receiver", () -> {
            try {
                received.set(String.valueOf(c.poll(5, TimeUnit.SECONDS)));
            } catch (InterruptedException e) {
                received.set("threw");
            }
        });
        untilParked(receiver);
        Thread interrupter = start("interrupter", receiver::interrupt);
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(c.offer(1)));
        join(receiver, interrupter, sender);
        assertEquals(offered.get() ? "1" : "threw", received.get(), "offer returned " + offered.get());

        AtomicReference<Object> sent = new AtomicReference<>();
        Thread timedSender = start("timed sender", () -> {
            try {
                sent.set(c.offer(2, 5, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                sent.set("threw");
            }
        });
        untilParked(timedSender);
        Thread interrupter2 = start("interrupter 2", timedSender::interrupt);
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(timedSender, interrupter2, poller);
        assertEquals(polled.get() != null ? (Object) true : "threw", sent.get(), "poll returned " + polled.get());
        assertNull(c.poll(), "a value was left behind");
    }

    /**
     * A timed offer or poll with a zero timeout waits not at all (Chan.offer(value, timeout, unit) and poll(timeout,
     * unit): "how long to wait at most; zero or less: not at all"), so on an unbuffered channel it never meets a
     * counterpart that does not wait either: an offer(1, 0 ms) races a poll(), then an offer(2) races a poll(0 ms);
     * every offer returns false and every poll null. Coverage review 22, mutant TO-0: Chan.send queueing a waiter for
     * a zero timeout ({@code !(timed && nanos < 0L)}: it waits until its deadline, already passed, is next read, and a
     * poll meanwhile takes its value): aTimedOfferRacingItsDeadlineSaysWhetherItSent uses 1 ms, and no Fray test
     * used a zero timeout.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aZeroTimeoutWaitsNotAtAll() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>(-1);
        Thread sender = start("zero-timeout sender", () -> offered.set(c.offer(1, 0, TimeUnit.MILLISECONDS)));
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(sender, poller);
        assertFalse(offered.get(), "an offer with a zero timeout met a poll that does not wait; it got " + polled.get());
        assertNull(polled.get());

        Thread sender2 = start("sender", () -> offered.set(c.offer(2)));
        Thread poller2 = start("zero-timeout poller", () -> polled.set(c.poll(0, TimeUnit.MILLISECONDS)));
        join(sender2, poller2);
        assertNull(polled.get(), "a poll with a zero timeout met an offer that does not wait");
        assertFalse(offered.get());
    }
}
