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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.junit.junit5.FrayTestExtension;
import org.pastalab.fray.junit.junit5.annotations.FrayTest;

/** The blocking contracts of {@link Select}: exactly one case, uniform choice, otherwise, close and interrupts, explored by Fray. */
@ExtendWith(FrayTestExtension.class)
class SelectFrayTest {
    private static final int SENT = 1;
    private static final int THREW = 2;

    /** A blocked select is completed by exactly one of two racing offers, and takes that one's value. */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aBlockedSelectTakesExactlyOneOffer() throws InterruptedException {
        Chan<Integer> a = new Chan<>();
        Chan<Integer> b = new Chan<>();
        AtomicReference<Integer> got = new AtomicReference<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        Thread selector = start("selector", () -> chosen.set(Select.select(a.onReceive(got::set), b.onReceive(got::set))));
        untilParked(selector);
        AtomicReference<Boolean> toA = new AtomicReference<>();
        AtomicReference<Boolean> toB = new AtomicReference<>();
        Thread sa = start("offer a", () -> toA.set(a.offer(1)));
        Thread sb = start("offer b", () -> toB.set(b.offer(2)));
        join(selector, sa, sb);
        assertTrue(toA.get() ^ toB.get(), "offers that succeeded: a " + toA.get() + ", b " + toB.get());
        assertEquals(toA.get() ? 0 : 1, chosen.get());
        assertEquals(toA.get() ? 1 : 2, got.get());
        assertFalse(a.offer(9) || b.offer(9), "the select left a waiter behind");
    }

    /**
     * A select interrupted as a counterpart comes: it is interrupted having done nothing, or it completed exactly the
     * case the counterpart did; no waiter of it is left behind either way.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptedSelectDoesOneCaseOrNone() throws InterruptedException {
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
        untilParked(selector);
        Thread interrupter = start("interrupter", selector::interrupt);
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread counterA = start("offer a", () -> offered.set(a.offer(1)));
        Thread counterB = start("poll b", () -> polled.set(b.poll()));
        join(selector, interrupter, counterA, counterB);
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

    /**
     * A select runs its otherwise case only if no case could proceed at one instant ({@code select} is atomic): here
     * one of the two channels holds a value at every instant (a value goes into a before b's is taken), so the select
     * always receives one.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void otherwiseRunsOnlyWhenNoCaseIsReadyAtOneInstant() throws InterruptedException {
        Chan<Integer> a = new Chan<>(1);
        Chan<Integer> b = new Chan<>(1);
        assertTrue(b.offer(2));
        AtomicInteger chosen = new AtomicInteger(-1);
        AtomicReference<Integer> got = new AtomicReference<>();
        Thread selector = start("selector",
                () -> chosen.set(Select.select(a.onReceive(got::set), b.onReceive(got::set), Select.otherwise(() -> { }))));
        AtomicReference<Integer> moved = new AtomicReference<>();
        Thread mover = start("mover", () -> {
            assertTrue(a.offer(1));
            moved.set(b.poll());
        });
        join(selector, mover);
        assertTrue(chosen.get() == 0 || chosen.get() == 1, "the select ran otherwise; chosen " + chosen.get());
        int left = (a.poll() != null ? 1 : 0) + (b.poll() != null ? 1 : 0);
        assertEquals(moved.get() != null ? 0 : 1, left, "values lost or duplicated: received " + got.get());
    }

    /**
     * A select whose send case races a close (Select: "A send case whose channel is closed when the select reaches it
     * throws ChanClosedException"; Chan.close: "a send on a closed channel throws"): on a buffered channel with room,
     * the select either sends before the close (then the closer finds the value buffered) or throws; a value never
     * goes into the channel after its close. Coverage review 19, mutant CH-S: Select's pass 1 without its closed
     * check (the send case appends to a closed channel): in every other Fray test the select reached its send case
     * before the close.
     */
    @FrayTest(iterations = 300 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aSelectSendCaseRacingACloseSendsBeforeItOrThrows() throws InterruptedException {
        Chan<Integer> c = new Chan<>(1);
        Chan<Integer> other = new Chan<>();
        AtomicInteger outcome = new AtomicInteger();
        AtomicInteger lenAtClose = new AtomicInteger(-1);
        Thread selector = start("selector", () -> {
            try {
                assertEquals(0, Select.select(c.onSend(1, () -> { }), other.onReceive(x -> { })));
                outcome.set(SENT);
            } catch (ChanClosedException e) {
                outcome.set(THREW);
            }
        });
        Thread closer = start("closer", () -> {
            c.close();
            lenAtClose.set(c.len());
        });
        join(selector, closer);
        if (outcome.get() == SENT) {
            assertEquals(1, lenAtClose.get(), "the select returned, but its value was not in the channel at the close");
            assertEquals(1, c.poll());
        }
        assertNull(c.poll(), "outcome " + outcome.get() + ": a value is in the closed channel");
        assertFalse(other.offer(9), "the select left a receiver on the other channel");
    }

    /**
     * Among several ready cases a select "picks one uniformly at random": with both of two buffered channels holding
     * a value at every select (a helper thread refills the one taken before the next select), each case is chosen
     * about half the time: at least 24 of 96 each (a fair coin misses that with probability below 1e-6). Coverage
     * review 19, mutant CH-U: Select.pollOrder not shuffling (the first ready case always wins): no other Fray test
     * has two cases ready at once.
     */
    @FrayTest(iterations = 10 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void severalReadyCasesAreChosenUniformly() throws InterruptedException {
        Chan<Integer> a = new Chan<>(1);
        Chan<Integer> b = new Chan<>(1);
        Chan<Integer> taken = new Chan<>(1);
        int rounds = 96;
        int[] chosen = new int[2];
        Thread refiller = start("refiller", () -> {
            for (Integer i; (i = taken.receive()) != null; ) {
                (i == 0 ? a : b).send(i);
            }
        });
        assertTrue(a.offer(0));
        assertTrue(b.offer(1));
        for (int r = 0; r < rounds; r++) {
            AtomicReference<Integer> got = new AtomicReference<>();
            FrayThreads.until("both cases are ready", () -> a.len() == 1 && b.len() == 1);
            int i = Select.select(a.onReceive(got::set), b.onReceive(got::set));
            assertEquals(i, got.get(), "case " + i + " received another channel's value");
            chosen[i]++;
            taken.send(i);
        }
        taken.close();
        join(refiller);
        assertTrue(chosen[0] >= rounds / 4 && chosen[1] >= rounds / 4,
                "not uniform: case 0 chosen " + chosen[0] + " times, case 1 " + chosen[1] + " of " + rounds);
    }

    /**
     * A case's action that throws, in a select that finds its counterpart already blocked (Select.select: "An
     * exception thrown by the action is thrown by this method, the case's operation done"): a sender blocked on an
     * unbuffered channel and a select whose receive case on it has a throwing action; then a receiver blocked on it
     * and a select whose send case has a throwing action. Each select throws the action's exception, and its
     * counterpart's operation is done: the sender returns, the receiver returns the value. Coverage review 19, mutant
     * SEL-W: Select waking the claimed counterpart after the action instead of before (a throwing action leaves it
     * parked for ever): no other Fray test had an action that throws.
     */
    @FrayTest(iterations = 100 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void aThrowingActionLeavesItsCaseDone() throws InterruptedException {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicBoolean sent = new AtomicBoolean();
        Thread sender = start("sender", () -> {
            c.send(1);
            sent.set(true);
        });
        untilParked(sender);
        AtomicReference<Object> thrown = new AtomicReference<>();
        Thread selector = start("selector", () -> {
            try {
                Select.select(c.onReceive(v -> {
                    throw new IllegalStateException("receive action " + v);
                }), other.onReceive(v -> { }));
            } catch (IllegalStateException e) {
                thrown.set(e.getMessage());
            }
        });
        join(selector, sender);
        assertEquals("receive action 1", thrown.get());
        assertTrue(sent.get(), "the sender did not return");

        AtomicReference<Integer> received = new AtomicReference<>();
        Thread receiver = start("receiver", () -> received.set(c.receive()));
        untilParked(receiver);
        Thread sendSelector = start("send selector", () -> {
            try {
                Select.select(c.onSend(2, () -> {
                    throw new IllegalStateException("send action");
                }), other.onReceive(v -> { }));
            } catch (IllegalStateException e) {
                thrown.set(e.getMessage());
            }
        });
        join(sendSelector, receiver);
        assertEquals("send action", thrown.get());
        assertEquals(2, received.get(), "the receiver did not get the value");
        assertFalse(other.offer(9), "a select left a receiver on the other channel");
    }

    /**
     * An interrupt that came before the call throws even when a case can proceed (Select.select: "throws
     * InterruptedException if the thread is interrupted on entry or while it waits (not with an otherwise case,
     * which never waits); no case was performed"): a thread, once it sees the interrupt another thread sent it,
     * selects on a receive from an empty channel of capacity 1, into which a third thread offers a value racing the
     * select, and on a send into a full channel of capacity 1, from which a fourth thread polls racing it. The select
     * throws; the offered value is still in the first channel, and the second holds nothing once its value was polled.
     * Coverage review 22, mutant SEL-IE: Select.select without its entry check (a select with a case ready performs
     * it despite the interrupt): every other Fray test interrupts a select already parked, and
     * ChanTest.anInterruptOnEntryThrowsAndNothingIsDone selects on a channel with no counterpart (the select queues,
     * and its wait throws).
     */
    @FrayTest(iterations = 20 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void anInterruptOnEntryThrowsEvenWithACaseReady() throws InterruptedException {
        Chan<Integer> in = new Chan<>(1);
        Chan<Integer> out = new Chan<>(1);
        assertTrue(out.offer(0));
        AtomicBoolean interruptSent = new AtomicBoolean();
        AtomicReference<String> outcome = new AtomicReference<>();
        Thread selector = start("selector", () -> {
            FrayThreads.until("the interrupt is sent", interruptSent::get);
            try {
                outcome.set("chose " + Select.select(in.onReceive(v -> { }), out.onSend(2, () -> { })));
            } catch (InterruptedException e) {
                outcome.set("threw");
            }
        });
        Thread interrupter = start("interrupter", () -> {
            selector.interrupt();
            interruptSent.set(true);
        });
        AtomicReference<Boolean> offered = new AtomicReference<>();
        AtomicReference<Integer> polled = new AtomicReference<>();
        Thread sender = start("sender", () -> offered.set(in.offer(1)));
        Thread poller = start("poller", () -> polled.set(out.poll()));
        join(selector, interrupter, sender, poller);
        assertEquals("threw", outcome.get(), "a select interrupted on entry");
        assertTrue(offered.get());
        assertEquals(1, in.poll(), "the value offered was not left in the channel");
        assertEquals(0, polled.get());
        assertNull(out.poll(), "the interrupted select's send put its value in");
    }

    /**
     * The uniform choice among ready cases with a case that is not ready listed first (Select: "Among the cases that can
     * proceed, select picks one uniformly at random"): of three receive cases, the first on a channel that never holds
     * a value and the other two on buffered channels that hold one at every select (a helper thread refills the one
     * taken), each of the two ready cases is chosen about half the time: at least 58 of 192 each (a fair coin misses
     * that with probability below 1e-7). Coverage review 22, mutant SEL-3: Select.pollOrder drawing the place of each
     * case among the first two only ({@code random.nextInt(Math.min(n + 1, 2))}: uniform for two cases, but a third
     * case is never placed last, so here it comes first among the ready two 3 times in 4):
     * severalReadyCasesAreChosenUniformly has two cases only.
     */
    @FrayTest(iterations = 10 * FrayBudget.SCALE, resetClassLoaderPerIteration = false,
            systemTimeDelegateType = SystemTimeDelegateType.MOCK, ignoreTimedBlock = false,
            scheduler = RandomScheduler.class)
    void twoReadyCasesBehindOneNotReadyAreChosenUniformly() throws InterruptedException {
        Chan<Integer> never = new Chan<>(1);
        Chan<Integer> a = new Chan<>(1);
        Chan<Integer> b = new Chan<>(1);
        Chan<Integer> taken = new Chan<>(1);
        int rounds = 192;
        int[] chosen = new int[3];
        Thread refiller = start("refiller", () -> {
            for (Integer i; (i = taken.receive()) != null; ) {
                (i == 1 ? a : b).send(i);
            }
        });
        assertTrue(a.offer(1));
        assertTrue(b.offer(2));
        for (int r = 0; r < rounds; r++) {
            AtomicReference<Integer> got = new AtomicReference<>();
            FrayThreads.until("both cases are ready", () -> a.len() == 1 && b.len() == 1);
            int i = Select.select(never.onReceive(got::set), a.onReceive(got::set), b.onReceive(got::set));
            assertEquals(i, got.get(), "case " + i + " received another channel's value");
            chosen[i]++;
            taken.send(i);
        }
        taken.close();
        join(refiller);
        assertEquals(0, chosen[0], "the case that was never ready was chosen");
        assertTrue(chosen[1] >= 58 && chosen[2] >= 58,
                "not uniform: case 1 chosen " + chosen[1] + " times, case 2 " + chosen[2] + " of " + rounds);
    }
}
