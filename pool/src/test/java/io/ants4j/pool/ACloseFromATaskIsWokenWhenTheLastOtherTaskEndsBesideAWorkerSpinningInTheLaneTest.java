package io.ants4j.pool;

import static io.ants4j.pool.TestSupport.await;
import static io.ants4j.pool.TestSupport.block;
import static io.ants4j.pool.TestSupport.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Contracts:
 * <ul>
 * <li>WorkerPool.close (WorkerPool.java:192-195): "Called from a task running on this pool, close ... releases the
 *     pool, waits until every other task has ended except those that are themselves calling close on this pool
 *     (or have called it), and returns."</li>
 * <li>WorkerPool.releaseTimeout (WorkerPool.java:165-167): "Called on a thread of the pool, it waits as close() does
 *     there: on a worker thread, for the other tasks but those closing the pool".</li>
 * <li>WorkerPool.idle (WorkerPool.java:78-79): "A worker that has just finished a task and spins in the pool's fast
 *     lane counts as idle".</li>
 * <li>PoolCore (PoolCore.java:113-119, "Close from a task"): "A reboot may reopen the pool while such a task waits
 *     ... one still spinning does not [count as idle], since a submitter that found the pool open may yet hand it
 *     a task, so the wait takes it out of the lane (SpinningWorkers#takeOutSpinner): withdrawing, it is idle at
 *     once, however long its thread takes to look at the slot."</li>
 * </ul>
 *
 * <p>A task closes its pool while two other tasks run; the pool is rebooted meanwhile (by another thread, as
 * {@code reboot()} allows at any time). The first other task ends and its worker, in the reopened pool, enters the
 * fast lane and spins (idle). The second other task then ends and its worker goes onto the idle queue: no task but
 * the closing one is left. That revert's wake-up of the closing task's wait
 * ({@code PoolCore.wakeTerminationWaitersLocked}) asks {@code onlyClosersRunLocked}, which counts the spinning
 * worker as running a task, so it wakes nobody; the wait itself would take the spinner out of the lane, but only
 * once woken. The closing task so waits until the spinner withdraws on its own, i.e. for as long as the spinner's
 * thread takes to look at the slot (its spin budget, or a preemption): {@code close()} does not return and
 * {@code releaseTimeout} throws {@code TimeoutException} with no other task in the pool.
 *
 * <p>The spinner here is on a lane whose spin budget does not run out (a timing parameter only: it stands for the
 * spinner's thread being descheduled, which takeOutSpinner's javadoc names as its reason: "the worker may not get
 * to look at the slot for a while (a descheduled thread)"). {@code close()} then does not return (5 s bound);
 * {@code releaseTimeout(30 s)} returns only at its deadline, when its timed-out wait looks once more and takes the
 * spinner out. The controls differ only in the lane's spin budget (1 read): each worker withdraws at once and
 * its revert wakes the closing task, which returns at once. The {@code underADebugger} cases use the production lane
 * (Pool, MultiPool): a JDI debugger holds the spinner's thread at the spin loop's read of the slot; the pool then
 * reports {@code running=3, idle=2} (only the closing task busy) and the closing call still waits 5 s and more,
 * returning only once the debugger lets the spinner go. Fails on 7fb7163.
 */
@Timeout(120)
class ACloseFromATaskIsWokenWhenTheLastOtherTaskEndsBesideAWorkerSpinningInTheLaneTest {

    @Test
    void closeFromATaskReturnsOnceTheLastOtherTaskEndedThoughAnIdleWorkerSpinsInTheLane() throws Exception {
        assertEquals("returned", closeFromATask(false, Integer.MAX_VALUE));
    }

    @Test
    void releaseTimeoutFromATaskReturnsOnceTheLastOtherTaskEndedThoughAnIdleWorkerSpinsInTheLane() throws Exception {
        assertEquals("returned", closeFromATask(true, Integer.MAX_VALUE));
    }

    /** Control: a spin budget of one read; each worker withdraws from the lane at once and reverts. */
    @Test
    void controlCloseFromATaskReturnsOnceTheLastOtherTaskEndedWhenTheSpinnerWithdrawsAtOnce() throws Exception {
        assertEquals("returned", closeFromATask(false, 1));
    }

    /** Control: as above, with releaseTimeout. */
    @Test
    void controlReleaseTimeoutFromATaskReturnsOnceTheLastOtherTaskEndedWhenTheSpinnerWithdrawsAtOnce()
            throws Exception {
        assertEquals("returned", closeFromATask(true, 1));
    }

    /**
     * The same with the production lane: the spinner's thread is held by a debugger in its spin loop (as a preemption
     * would hold it), see {@link ACloseFromATaskBesideASpinnerProbe}; {@code close()} from the task does not return
     * within 5 s of the last other task's end, however long the hold lasts.
     */
    @Test
    void underADebuggerAPoolsCloseFromATaskReturnsThoughTheIdleSpinnersThreadIsHeld() throws Exception {
        assertReturnsUnderADebugger("pool", "close");
    }

    @Test
    void underADebuggerAPoolsReleaseTimeoutFromATaskReturnsThoughTheIdleSpinnersThreadIsHeld() throws Exception {
        assertReturnsUnderADebugger("pool", "releaseTimeout");
    }

    @Test
    void underADebuggerAMultiPoolsCloseFromATaskReturnsThoughTheIdleSpinnersThreadIsHeld() throws Exception {
        assertReturnsUnderADebugger("multi", "close");
    }

    /**
     * Without a reboot: the worker passes {@code nextFromLane}'s check while the pool is open, is preempted (held)
     * before its lane entry, the task closes the pool and waits, then the worker enters the closed pool's lane and is
     * preempted again just after its entry CAS, before its first look at its pool; the last other task ends and its
     * worker retires. This window is the documented limit (PoolCore, "Close from a task": a worker preempted between
     * its entry and its first look delays the wait until it runs again): {@code close()}/{@code releaseTimeout(30 s)}
     * still waits 1 s later, and returns once the worker runs (the debugger lets it go), the pool terminating. See
     * {@link ACloseFromATaskBesideAWorkerEnteringTheLaneOfTheClosedPoolProbe}.
     */
    @Test
    void underADebuggerCloseFromATaskWaitsForAWorkerPreemptedJustAfterEnteringTheClosedPoolsLane() throws Exception {
        assertWaitsForThePreemptedWorker("close");
    }

    @Test
    void underADebuggerReleaseTimeoutFromATaskWaitsForAWorkerPreemptedJustAfterEnteringTheClosedPoolsLane()
            throws Exception {
        assertWaitsForThePreemptedWorker("releaseTimeout");
    }

    private static void assertWaitsForThePreemptedWorker(String call) throws Exception {
        List<String> out = ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest.run(
                ACloseFromATaskBesideAWorkerEnteringTheLaneOfTheClosedPoolProbe.class, call,
                String.valueOf(ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest.lineOf(
                        "        } else if (!takeToken()) {")),
                String.valueOf(ASubmitterLookingForTheHotWorkerDoesNotOvertakeAWaitingSubmitterTest.lineOf(
                        "        Object v = mine;")));
        String all = String.join("\n", out);
        assertTrue(out.contains("HELD 1"), "the debugger never held the worker in the lane:\n" + all);
        String outcome = out.stream().filter(l -> l.startsWith("OUTCOME ")).findFirst().orElse("OUTCOME none");
        assertTrue(outcome.startsWith("OUTCOME still waiting"), call + "() from a task, no other task left, one worker"
                + " preempted just after entering the closed pool's fast lane:\n" + all);
        assertTrue(out.contains("TERMINATED true"), all);
    }

    private static void assertReturnsUnderADebugger(String kind, String call) throws Exception {
        List<String> out = AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.runUnderDebugger(
                ACloseFromATaskBesideASpinnerProbe.class,
                AReleaseTimeoutZeroFromATaskIgnoresAWorkerEnteringTheLaneTest.SPIN_LOOP_READ, kind, call);
        String all = String.join("\n", out);
        // held only if the worker entered the lane before the task began to wait; after, it goes back to its pool
        String outcome = out.stream().filter(l -> l.startsWith("OUTCOME ")).findFirst().orElse("OUTCOME none");
        assertEquals("OUTCOME returned", outcome, call + "() from a task, the pool rebooted meanwhile, no other task"
                + " left, one worker idle on the queue and one idle in the fast lane (its thread held there):\n" + all);
        assertTrue(out.contains("TERMINATED true"), all);
    }

    /**
     * @param releaseTimeout whether the task calls {@code releaseTimeout(30 s)} rather than {@code close()}
     * @param spins          the lane's spin budget: a spinner that lingers, or (control) one that withdraws at once
     * @return "returned" if the closing call returned normally within 5 s of the last other task's end
     */
    private static String closeFromATask(boolean releaseTimeout, int spins) throws Exception {
        eventually("no worker of another pool in a lane (the JVM's lane budget)", () -> SpinningWorkers.inLanes() == 0);
        PoolOptions options = PoolOptions.builder().disablePurge(true)
                .threadFactory(Thread.ofPlatform().daemon(true).name("close-beside-spinner-", 0).factory()).build();
        MultiPool mp = MultiPool.newMultiPool(1, 3, LoadBalancing.ROUND_ROBIN, options);
        SpinningWorkers lane = new SpinningWorkers(spins);
        PoolCore core = SubPools.replace(mp, 0, 3, options, lane, SystemNanoClock.INSTANCE);

        CountDownLatch closerStarted = new CountDownLatch(1);
        CountDownLatch closeNow = new CountDownLatch(1);
        CountDownLatch closeReturned = new CountDownLatch(1);
        AtomicReference<String> outcome = new AtomicReference<>("none");
        AtomicReference<Thread> closer = new AtomicReference<>();
        mp.execute(() -> {
            closer.set(Thread.currentThread());
            closerStarted.countDown();
            block(closeNow);
            try {
                if (releaseTimeout) {
                    mp.releaseTimeout(Duration.ofSeconds(30));
                } else {
                    mp.close();
                }
                outcome.set("returned");
            } catch (TimeoutException e) {
                outcome.set("TimeoutException: " + e.getMessage());
            } catch (Throwable t) {
                outcome.set(t.toString());
            }
            closeReturned.countDown();
        });
        await(closerStarted);
        CountDownLatch othersRun = new CountDownLatch(2);
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch secondMayEnd = new CountDownLatch(1);
        mp.execute(() -> {
            othersRun.countDown();
            block(firstMayEnd);
        });
        mp.execute(() -> {
            othersRun.countDown();
            block(secondMayEnd);
        });
        await(othersRun);
        assertEquals(3, mp.running(), mp::toString);
        try {
            closeNow.countDown();
            eventually("the closing task waits for the other tasks", () -> mp.isClosed()
                    && closer.get().getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(closer.get().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("awaitOnlyClosers")), mp::toString);
            mp.reboot();
            firstMayEnd.countDown();
            // a task waiting for the others, the worker goes back to its pool rather than into the lane (or, had it
            // entered first, the wait takes it out): idle either way
            eventually("the first other task's worker is idle", () -> core.idle() == 1, mp::toString);
            secondMayEnd.countDown();
            eventually("the second other task's worker is idle: no task but the closing one runs",
                    () -> core.idle() >= 2 && mp.running() == 3, mp::toString);
            boolean returned = closeReturned.await(5, TimeUnit.SECONDS);
            String state = mp.toString();
            return returned ? outcome.get()
                    : "still waiting 5 s after the last other task ended (" + outcome.get() + "), pool " + state
                            + ", an idle worker spinning in the lane: " + lane.hasSpinner() + "; the closing task: "
                            + Arrays.toString(closer.get().getStackTrace());
        } finally {
            firstMayEnd.countDown();
            secondMayEnd.countDown();
            lane.takeOutSpinner(); // the spinner withdraws, goes idle, and wakes the closing task
            closeReturned.await(30, TimeUnit.SECONDS);
            mp.release();
            LaneFixtures.awaitTerminationFreeingTheSpinner(lane, mp::isTerminated, mp::toString);
            mp.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
