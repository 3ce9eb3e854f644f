package io.ants4j.channels;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Go's {@code select}: waits until one of several channel operations can proceed, performs exactly that one, and
 * runs its action.
 *
 * <pre>{@code
 * switch (Select.select(
 *         jobs.onReceive(job -> handle(job)),
 *         done.onReceive(unused -> {}),
 *         Select.otherwise(() -> idle()))) {
 *     case 1 -> { return; }          // Go's "case <-done: return"
 *     default -> { }
 * }
 * }</pre>
 *
 * <p>Cases are made by {@link Chan#onReceive}, {@link Chan#onSend} and {@link #otherwise}. Among the cases that can
 * proceed, {@code select} picks one uniformly at random, as Go does, so that no channel starves another. A case that
 * was not chosen received or sent nothing. A {@code null} case is ignored (Go disables a case by making its channel
 * nil); the same channel may appear in several cases.
 *
 * <p>Misuse: more than one {@code otherwise} case throws {@link IllegalArgumentException} (Go does not compile it).
 * A send case whose channel is closed when the select reaches it throws {@link ChanClosedException}, as Go panics.
 */
public final class Select {
    /*
     * Implementation notes: Go's selectgo (runtime/select.go).
     *
     * Pass 1: lock every channel of the cases, in the order of their ids (so that two selects cannot deadlock), and
     * look at the cases in a random order (Go's pollorder): the first that can proceed is performed then, under the
     * locks. So the choice is uniform among the ready cases, and atomic: the locks keep every other case as it was.
     * With none ready: an otherwise case runs; else pass 2 queues one waiter per case, all led by the first one
     * (see Waiter), unlocks and parks. The first counterpart (or close) to claim one of the waiters decides the
     * outcome of them all, by its CAS on the leader's outcome; the select then removes its other waiters, each under
     * its channel's lock (a counterpart that finds one of them drops it: its CAS fails). An interrupt competes for
     * the same CAS: if it wins, the select leaves having done nothing.
     *
     * The arrays and waiters are allocated before any state changes (pass 2 allocates all its waiters before it
     * queues the first), so an OutOfMemoryError leaves every channel as it was.
     */
    private Select() {
    }

    /**
     * A case of a {@link Select#select}: made by {@link Chan#onReceive}, {@link Chan#onSend} or
     * {@link Select#otherwise}.
     */
    public abstract static sealed class Case permits Receive, Send, Otherwise {
        Case() {
        }
    }

    static final class Receive<T> extends Case {
        final Chan<T> chan;
        final Consumer<? super T> action;

        Receive(Chan<T> chan, Consumer<? super T> action) {
            this.chan = chan;
            this.action = action;
        }

        @SuppressWarnings("unchecked")
        void run(Object value) {
            action.accept((T) value);
        }
    }

    static final class Send extends Case {
        final Chan<?> chan;
        final Object value;
        final Runnable action;

        Send(Chan<?> chan, Object value, Runnable action) {
            this.chan = chan;
            this.value = value;
            this.action = action;
        }
    }

    static final class Otherwise extends Case {
        final Runnable action;

        Otherwise(Runnable action) {
            this.action = action;
        }
    }

    /**
     * A case chosen when no other case can proceed at once (Go's {@code default}): a select that has one never
     * waits.
     *
     * @param action run when the case is chosen
     * @return the case
     * @throws NullPointerException if {@code action} is null
     */
    public static Case otherwise(Runnable action) {
        return new Otherwise(Objects.requireNonNull(action, "action"));
    }

    /**
     * Waits until one of {@code cases} can proceed, performs it, runs its action in this thread and returns its
     * index in {@code cases}. Among several cases that can proceed it picks one uniformly at random; with an
     * {@link #otherwise} case it never waits. With no case at all (or only null ones) it waits for ever, until
     * interrupted. An exception thrown by the action is thrown by this method, the case's operation done.
     *
     * <p>Memory consistency effects: as for the channel operation the chosen case performed (see {@link Chan}).
     *
     * @param cases the cases; null elements are ignored
     * @return the index in {@code cases} of the case chosen
     * @throws InterruptedException if the thread is interrupted on entry or while it waits (not with an
     *     {@code otherwise} case, which never waits); no case was performed
     * @throws ChanClosedException if the case chosen sends on a closed channel; nothing was sent
     * @throws IllegalArgumentException if there is more than one {@code otherwise} case
     * @throws NullPointerException if {@code cases} is null
     */
    public static int select(Case... cases) throws InterruptedException {
        int otherwise = -1;
        int k = 0;
        for (int i = 0; i < cases.length; i++) {
            Case c = cases[i];
            if (c instanceof Otherwise) {
                if (otherwise >= 0) {
                    throw new IllegalArgumentException("more than one otherwise case");
                }
                otherwise = i;
            } else if (c != null) {
                k++;
            }
        }
        if (otherwise < 0) {
            Interrupts.throwIfInterrupted();
        }
        if (k == 0) {
            if (otherwise >= 0) {
                ((Otherwise) cases[otherwise]).action.run();
                return otherwise;
            }
            return blockForever();
        }
        int[] at = new int[k]; // the channel cases' indices in cases, in a random order (Go's pollorder)
        Chan<?>[] chans = new Chan<?>[k]; // their channels, in lock order, each once
        pollOrder(cases, at);
        int locks = lockOrder(cases, at, chans);

        int chosen = -1;
        Object wake = null;
        Object received = null;
        Waiter[] waiters = null;
        lockAll(chans, locks);
        try {
            for (int j = 0; j < k && chosen < 0; j++) {
                Case c = cases[at[j]];
                if (c instanceof Send s) {
                    if (s.chan.isClosed()) {
                        throw new ChanClosedException("send on closed channel");
                    }
                    wake = s.chan.trySendLocked(s.value);
                    if (wake != null) {
                        chosen = at[j];
                    }
                } else {
                    Chan<?> chan = ((Receive<?>) c).chan;
                    received = chan.takeLocked();
                    if (received != Chan.NOT_READY) {
                        wake = chan.claimedLocked();
                        chosen = at[j];
                    }
                }
            }
            if (chosen < 0 && otherwise < 0) {
                waiters = queueWaiters(cases, at);
            }
        } finally {
            unlockAll(chans, locks);
        }
        if (waiters != null) {
            return awaitCases(cases, at, waiters);
        }
        if (chosen < 0) {
            ((Otherwise) cases[otherwise]).action.run();
            return otherwise;
        }
        if (wake instanceof Waiter w) {
            w.wake();
        }
        perform(cases[chosen], received);
        return chosen;
    }

    /** Pass 2, under every lock: queues a waiter per case, all allocated before the first is queued. */
    private static Waiter[] queueWaiters(Case[] cases, int[] at) {
        int k = at.length;
        Waiter[] waiters = new Waiter[k];
        Waiter leader = null;
        for (int j = 0; j < k; j++) {
            Case c = cases[at[j]];
            Chan<?> chan = c instanceof Send s ? s.chan : ((Receive<?>) c).chan;
            waiters[j] = new Waiter(leader, j, chan, c instanceof Send s ? s.value : null);
            leader = waiters[0];
        }
        for (int j = 0; j < k; j++) {
            waiters[j].chan.enqueueLocked(waiters[j], cases[at[j]] instanceof Send);
        }
        return waiters;
    }

    /** Waits, unlocked, until a case of the queued waiters is chosen, removes the others and performs it. */
    private static int awaitCases(Case[] cases, int[] at, Waiter[] waiters) throws InterruptedException {
        int outcome;
        try {
            outcome = waiters[0].await(false, 0L);
        } catch (RuntimeException | Error e) { // its park threw, and it gave up
            removeWaiters(cases, at, waiters, -1);
            throw e;
        }
        if (outcome < 0) {
            removeWaiters(cases, at, waiters, -1);
            throw Interrupts.consumed();
        }
        int j = Waiter.chosenIndex(outcome);
        removeWaiters(cases, at, waiters, j);
        Case c = cases[at[j]];
        if (c instanceof Send) {
            if (Waiter.closedOutcome(outcome)) {
                throw new ChanClosedException("send on closed channel");
            }
            perform(c, null);
        } else {
            perform(c, Waiter.closedOutcome(outcome) ? null : waiters[j].item);
        }
        return at[j];
    }

    private static void removeWaiters(Case[] cases, int[] at, Waiter[] waiters, int chosen) {
        for (int j = 0; j < waiters.length; j++) {
            if (j != chosen) {
                waiters[j].chan.dequeue(waiters[j], cases[at[j]] instanceof Send);
            }
        }
    }

    private static void perform(Case c, Object received) {
        if (c instanceof Send s) {
            s.action.run();
        } else {
            ((Receive<?>) c).run(received);
        }
    }

    /** Fills {@code at} with the indices of the channel cases in a uniformly random order (Fisher-Yates). */
    private static void pollOrder(Case[] cases, int[] at) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int n = 0;
        for (int i = 0; i < cases.length; i++) {
            if (cases[i] != null && !(cases[i] instanceof Otherwise)) {
                int j = random.nextInt(n + 1);
                at[n] = at[j];
                at[j] = i;
                n++;
            }
        }
    }

    /** Fills {@code chans} with the cases' channels sorted by id, each once; returns how many. */
    private static int lockOrder(Case[] cases, int[] at, Chan<?>[] chans) {
        int n = 0;
        for (int i : at) {
            Case c = cases[i];
            Chan<?> chan = c instanceof Send s ? s.chan : ((Receive<?>) c).chan;
            int j = n;
            while (j > 0 && chans[j - 1].id > chan.id) {
                j--;
            }
            if (j > 0 && chans[j - 1] == chan) {
                continue;
            }
            System.arraycopy(chans, j, chans, j + 1, n - j);
            chans[j] = chan;
            n++;
        }
        return n;
    }

    private static void lockAll(Chan<?>[] chans, int n) {
        int locked = 0;
        try {
            for (; locked < n; locked++) {
                chans[locked].lock.lock();
            }
        } catch (Throwable t) {
            unlockAll(chans, locked);
            throw t;
        }
    }

    private static void unlockAll(Chan<?>[] chans, int n) {
        for (int i = n - 1; i >= 0; i--) {
            chans[i].lock.unlock();
        }
    }

    private static int blockForever() throws InterruptedException {
        for (;;) {
            LockSupport.park(Select.class);
            Interrupts.throwIfInterrupted();
        }
    }
}
