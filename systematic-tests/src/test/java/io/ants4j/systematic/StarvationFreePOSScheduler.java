package io.ants4j.systematic;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.pastalab.fray.core.ThreadContext;
import org.pastalab.fray.core.concurrency.operations.NonRacingOperation;
import org.pastalab.fray.core.concurrency.operations.RacingOperation;
import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.core.randomness.Randomness;
import org.pastalab.fray.core.scheduler.Scheduler;

/**
 * Fray's POS scheduler (partial order sampling) with a bound on starvation: a thread that could run but was
 * passed over at {@value #STARVATION_BOUND} decisions in a row runs at the next decision, and every thread then
 * draws a new priority. A decision at which one thread alone can run passes nobody over and ends every run.
 *
 * <p>POS keeps what the tests on it need: a thread draws a random priority when it first becomes able to run
 * and keeps it until it runs, or until a step of another thread races with its pending step; the thread with
 * the lowest priority runs, a pending step that races with nothing (a yield) before anything else. So a thread
 * woken up with a high draw stays off the processor while another completes a long run of k steps, with
 * probability about 1/(k+1) where a random walk's is 2^-k. Fray's own POS has no bound on how long a runnable
 * thread waits: in {@code PoolLifecycleFrayTest}'s two POS tests, a thread spinning for the pool's lock (a CAS,
 * then yields, which POS runs before anything else) ran on and on while the lock's holder did not run, until the
 * test's watchdog ended the fork (1 of 3 runs). With the bound such a run ends (also against steps that race with
 * nothing, which a new draw of priorities alone would not stop), and the window those tests need
 * (a {@code release(); reboot()} between a wake-up and the woken thread's next step) is still reached: their
 * mutant is caught within the first 35 iterations (docs/testing.md).
 */
public final class StarvationFreePOSScheduler extends Scheduler {

    /** Decisions a runnable thread may be passed over in a row; at the next it runs. */
    static final int STARVATION_BOUND = 2_000;

    private final Map<ThreadContext, Double> priorities = new HashMap<>();
    private final Map<ThreadContext, Integer> passedOver = new HashMap<>();
    private final List<ThreadContext> nonRacing = new ArrayList<>();

    /** A scheduler on a fresh random source; Fray calls it for {@code @FrayTest(scheduler = ...)}. */
    public StarvationFreePOSScheduler() {
        this(new ControlledRandom());
    }

    /** A scheduler drawing from {@code randomness}. */
    public StarvationFreePOSScheduler(Randomness randomness) {
        super(randomness);
    }

    @Override
    public ThreadContext scheduleNextOperation(List<ThreadContext> threads, Collection<ThreadContext> allThreads) {
        if (threads.size() == 1) {
            passedOver.clear(); // the one that can run runs; the others could not: no run of decisions goes on
            return threads.get(0);
        }
        ThreadContext starved = starved(threads);
        if (starved != null) {
            passedOver.clear();
            priorities.clear(); // the next decision draws every priority anew
            return starved;
        }
        nonRacing.clear();
        for (ThreadContext t : threads) {
            priorities.computeIfAbsent(t, unused -> getRand().nextDouble(0, 1));
            if (t.getPendingOperation() instanceof NonRacingOperation) {
                nonRacing.add(t);
            }
        }
        ThreadContext next = lowest(nonRacing.isEmpty() ? threads : nonRacing);
        countPassedOver(threads, next);
        if (!nonRacing.isEmpty()) {
            return next; // a step that races with nothing changes no priority (as in Fray's POS)
        }
        // the chosen thread draws anew, and so does every runnable thread whose pending step races with its step
        priorities.keySet().removeIf(t -> t == next || (t.getPendingOperation() instanceof RacingOperation r
                && threads.contains(t) && r.isRacing(next.getPendingOperation())));
        return next;
    }

    /** The runnable thread passed over at the bound's number of decisions in a row, if any. */
    private ThreadContext starved(List<ThreadContext> threads) {
        for (ThreadContext t : threads) {
            if (passedOver.getOrDefault(t, 0) >= STARVATION_BOUND) {
                return t;
            }
        }
        return null;
    }

    private ThreadContext lowest(List<ThreadContext> candidates) {
        ThreadContext lowest = candidates.get(0);
        for (ThreadContext t : candidates) {
            if (priorities.get(t) < priorities.get(lowest)) {
                lowest = t;
            }
        }
        return lowest;
    }

    /** Counts a decision for {@code next} against every other runnable thread; a thread not runnable starts over. */
    private void countPassedOver(List<ThreadContext> threads, ThreadContext next) {
        passedOver.keySet().retainAll(threads);
        passedOver.remove(next);
        for (ThreadContext t : threads) {
            if (t != next) {
                passedOver.merge(t, 1, Integer::sum);
            }
        }
    }

    @Override
    public Scheduler nextIteration(Randomness randomness) {
        return new StarvationFreePOSScheduler(randomness);
    }
}
