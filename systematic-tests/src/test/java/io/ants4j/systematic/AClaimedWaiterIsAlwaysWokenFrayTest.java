package io.ants4j.systematic;

import static io.ants4j.systematic.FrayThreads.join;
import static io.ants4j.systematic.FrayThreads.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/**
 * Review 60 (c2a49e6: a claimer unparks a waiter only if the waiter's LEADER has set {@code parks}): every path
 * that claims a waiter, raced against the waiter's spin, its write of {@code parks} and its park (no
 * {@code untilParked}: the claim may land before, during or after the spin). Contract (Chan javadoc): "a
 * {@link Chan#receive} [waits] until a sender gives one", "senders waiting at the close throw it too, ...
 * receivers waiting now return null"; Select javadoc: "Waits until one of cases can proceed, performs it". A lost
 * wake-up shows as a thread that does not end within FrayThreads.TIMEOUT_SECONDS (virtual time).
 */
@ExtendWith(FrayTestExtension.class)
class AClaimedWaiterIsAlwaysWokenFrayTest {
    /**
     * Select's poll order uses ThreadLocalRandom: its class is initialized here, in one thread, because two test
     * threads racing its static initializer livelock under Fray (a Fray artefact, not a channel defect).
     */
    private static void initRandom() {
        ThreadLocalRandom.current().nextInt();
    }

    /**
     * A select of three receive cases, two of them on the same channel: the sender's value goes to whichever of
     * its waiters on b comes first, which the random poll order makes the leader or not.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSelectClaimedOnAnyOfItsCasesWakes() throws InterruptedException {
        initRandom();
        Chan<Integer> a = new Chan<>();
        Chan<Integer> b = new Chan<>();
        AtomicReference<Integer> got = new AtomicReference<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        Thread selector = start("selector",
                () -> chosen.set(Select.select(a.onReceive(got::set), b.onReceive(got::set), b.onReceive(got::set))));
        Thread sender = start("sender", () -> b.send(7));
        join(selector, sender);
        assertEquals(7, got.get());
        assertFalse(chosen.get() == 0, "chose the receive on a");
        assertFalse(a.offer(9) || b.offer(9), "the select left a waiter behind");
    }

    /**
     * A receive from a full buffer refills it from a select blocked on a send case (not necessarily its leader):
     * the select must wake having sent.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aBufferRefilledFromABlockedSelectWakesIt() throws InterruptedException {
        initRandom();
        Chan<Integer> c = new Chan<>(1);
        Chan<Integer> idle = new Chan<>();
        c.offer(1);
        AtomicInteger chosen = new AtomicInteger(-1);
        Thread selector = start("selector",
                () -> chosen.set(Select.select(idle.onReceive(v -> { }), c.onSend(2, () -> { }))));
        AtomicReference<Integer> first = new AtomicReference<>();
        AtomicReference<Integer> second = new AtomicReference<>();
        Thread receiver = start("receiver", () -> {
            first.set(c.receive());
            second.set(c.receive());
        });
        join(selector, receiver);
        assertEquals(1, chosen.get());
        assertEquals(1, first.get());
        assertEquals(2, second.get());
        assertFalse(idle.offer(9), "the select left a receiver on idle");
    }

    /**
     * close() claims a chain of waiters (a plain receive, a timed poll, a select with the channel twice) and wakes
     * them after its unlock: each must return.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void closeWakesEveryClaimedWaiterOfItsChain() throws InterruptedException {
        initRandom();
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicReference<Object> plain = new AtomicReference<>("unset");
        AtomicReference<Object> timed = new AtomicReference<>("unset");
        AtomicReference<Object> selected = new AtomicReference<>("unset");
        Thread receiver = start("receiver", () -> plain.set(c.receive()));
        Thread poller = start("poller", () -> timed.set(c.poll(1, TimeUnit.HOURS)));
        Thread selector = start("selector",
                () -> Select.select(c.onReceive(selected::set), other.onReceive(v -> { }), c.onReceive(selected::set)));
        Thread closer = start("closer", c::close);
        join(receiver, poller, selector, closer);
        assertNull(plain.get());
        assertNull(timed.get());
        assertNull(selected.get());
        assertFalse(other.offer(1), "the select left a receiver on the other channel");
    }

    /**
     * Two selects hand values to each other across two channels (each a sender on one, a receiver on the other):
     * every claim is made by a select's pass 1 on the other's queued waiter.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoSelectsClaimingEachOtherBothWake() throws InterruptedException {
        initRandom();
        Chan<Integer> a = new Chan<>();
        Chan<Integer> b = new Chan<>();
        AtomicInteger rounds = new AtomicInteger();
        Thread x = start("x", () -> {
            for (int i = 0; i < 2; i++) {
                Select.select(a.onSend(1, () -> { }), b.onReceive(v -> { }));
                rounds.incrementAndGet();
            }
        });
        Thread y = start("y", () -> {
            for (int i = 0; i < 2; i++) {
                Select.select(b.onSend(2, () -> { }), a.onReceive(v -> { }));
                rounds.incrementAndGet();
            }
        });
        join(x, y);
        assertEquals(4, rounds.get());
    }

    /**
     * An interrupt racing a hand-off while the receiver may still be spinning (no untilParked): the receiver got the
     * value exactly when the offer succeeded, and was interrupted having received nothing otherwise (Chan javadoc:
     * "leaves having sent or received nothing ... One whose value was handed over as it was interrupted returns
     * normally, with its interrupt status set").
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptRacingAHandOffToASpinningReceiverLosesNothing() throws InterruptedException {
        initRandom();
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread receiver = start("receiver", () -> {
            try {
                got.set(c.receive());
            } catch (InterruptedException e) {
                got.set("interrupted");
            }
        });
        AtomicReference<Boolean> offered = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(c.offer(7)));
        Thread interrupter = start("interrupter", receiver::interrupt);
        join(receiver, sender, interrupter);
        assertEquals(offered.get() ? (Object) 7 : "interrupted", got.get(), "offered " + offered.get());
        assertFalse(c.offer(9), "the receiver left a waiter behind");
    }

    /**
     * A timed send racing its deadline and a poll, neither waiting for the other to park: the value is polled exactly
     * when the timed send returned true (Chan javadoc: "false if the time ran out first (nothing was sent)").
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aTimedSendRacingItsDeadlineAndAPollLosesNothing() throws InterruptedException {
        initRandom();
        Chan<Integer> c = new Chan<>();
        AtomicReference<Boolean> sent = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread sender = start("sender", () -> sent.set(c.offer(5, 1, TimeUnit.MILLISECONDS)));
        Thread poller = start("poller", () -> polled.set(c.poll()));
        join(sender, poller);
        assertEquals(sent.get() ? (Integer) 5 : null, polled.get(), "sent " + sent.get());
        assertNull(c.poll(), "a sender left behind");
    }

    /**
     * A select interrupted while counterparts claim its cases, none of them waiting for it to park: it did one case
     * (the one its counterpart did) or none.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptRacingClaimsOfASpinningSelectDoesOneCaseOrNone() throws InterruptedException {
        initRandom();
        Chan<Integer> a = new Chan<>();
        Chan<Integer> b = new Chan<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        Thread selector = start("selector", () -> {
            try {
                chosen.set(Select.select(a.onReceive(v -> { }), b.onSend(5, () -> { })));
            } catch (InterruptedException e) {
                chosen.set(-2);
            }
        });
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread counterA = start("offer a", () -> offered.set(a.offer(1)));
        Thread counterB = start("poll b", () -> polled.set(b.poll()));
        Thread interrupter = start("interrupter", selector::interrupt);
        join(selector, counterA, counterB, interrupter);
        int done = (offered.get() ? 1 : 0) + (polled.get() != null ? 1 : 0);
        if (chosen.get() == -2) {
            assertEquals(0, done, "the interrupted select did a case");
        } else {
            assertEquals(1, done, "the select chose " + chosen.get() + "; counterparts done: " + done);
            assertEquals(offered.get() ? 0 : 1, chosen.get());
        }
        assertFalse(a.offer(9), "a receiver left on a");
        assertNull(b.poll(), "a sender left on b");
    }
}
