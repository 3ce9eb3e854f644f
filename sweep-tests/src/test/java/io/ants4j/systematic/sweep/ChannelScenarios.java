package io.ants4j.systematic.sweep;

import static io.ants4j.systematic.sweep.Probe.check;
import static io.ants4j.systematic.sweep.Probe.noneOrOutOfMemory;

import io.ants4j.channels.Chan;
import io.ants4j.channels.Select;
import io.ants4j.channels.Ticker;
import java.time.Duration;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The sweep's channel scenarios: a receive, a send and a select that must wait (each allocates its waiters before it
 * queues them), a counterpart coming once the operation parks, and a close with a receiver waiting. After each: a
 * value was received exactly when a counterpart's offer succeeded, no waiter of a failed operation is left queued
 * (an offer or poll then finds nobody), and the channel still works.
 */
final class ChannelScenarios {
    private ChannelScenarios() {
    }

    /** A channel and what the counterpart did. */
    static final class ChanState {
        final Chan<Integer> chan = new Chan<>();
        final Chan<Integer> other = new Chan<>();
        final AtomicReference<Object> got = new AtomicReference<>();
        final AtomicReference<Boolean> counterpartDone = new AtomicReference<>();
        final java.util.function.Consumer<Integer> keep = got::set;
        Probe.Helper counterpart;

        ChanState with(Probe.Helper helper) {
            counterpart = helper;
            return this;
        }
    }

    static List<Scenario<?>> all() {
        return List.of(
                Scenario.of("Chan.receive (waits; a sender offers once it parks)", () -> {
                    ChanState s = new ChanState();
                    return s.with(Probe.onlyIfOperationParks("sender", () -> s.counterpartDone.set(s.chan.offer(1))));
                }, s -> s.got.set(s.chan.receive()), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    s.counterpart.join();
                    check(thrown == null ? Integer.valueOf(1).equals(s.got.get()) && s.counterpartDone.get()
                            : s.counterpartDone.get() == null, "received " + s.got + ", offered " + s.counterpartDone);
                    check(!s.chan.offer(2), "a receiver was left queued");
                    chanWorks(s.chan);
                }).failingAnAllocation(),
                Scenario.of("Chan.send (waits; a receiver polls once it parks)", () -> {
                    ChanState s = new ChanState();
                    return s.with(Probe.onlyIfOperationParks("receiver", () -> s.got.set(s.chan.poll())));
                }, s -> s.chan.send(1), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    s.counterpart.join();
                    check(thrown == null ? Integer.valueOf(1).equals(s.got.get()) : s.got.get() == null,
                            "the send threw " + thrown + "; the receiver got " + s.got);
                    check(s.chan.poll() == null, "a sender was left queued");
                    chanWorks(s.chan);
                }).failingAnAllocation(),
                Scenario.of("Select.select (waits on two channels; a sender offers once it parks)", () -> {
                            ChanState s = new ChanState();
                            return s.with(Probe.onlyIfOperationParks("sender",
                                    () -> s.counterpartDone.set(s.other.offer(7))));
                        }, s -> Select.select(s.chan.onReceive(s.keep), s.other.onReceive(s.keep)), (s, thrown) -> {
                            noneOrOutOfMemory(thrown);
                            s.counterpart.join();
                            check(thrown == null ? Integer.valueOf(7).equals(s.got.get()) && s.counterpartDone.get()
                                    : s.counterpartDone.get() == null, "got " + s.got + ", offered " + s.counterpartDone);
                            check(!s.chan.offer(2) && !s.other.offer(2), "a select waiter was left queued");
                            chanWorks(s.chan);
                            chanWorks(s.other);
                        }).failingAnAllocation(),
                // the timer is made on the exhausted heap, and its time comes while the operation waits (allocating
                // nothing): the timer thread's Instant fails too once the operation had all it needed. A timer made
                // is not lost ("no timer is lost to it", Timers' notes): it sends once memory is back; one that
                // failed to be made left the timers as they were: a new one sends.
                Scenario.of("Chan.after (its time comes on the exhausted heap)", AfterState::new, s -> {
                    s.due = System.nanoTime() + AfterState.DELAY.toNanos();
                    s.chan = Chan.after(AfterState.DELAY);
                    while (System.nanoTime() - s.due - AfterState.PAST_NANOS < 0L) {
                        LockSupport.parkNanos(AfterState.PARK_NANOS);
                    }
                }, (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    Chan<Instant> c = thrown == null ? s.chan : Chan.after(AfterState.DELAY);
                    check(c.poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) != null, thrown == null
                            ? "Chan.after(" + AfterState.DELAY + ") never sent its time once memory was back"
                            : "a Chan.after made after one that threw " + thrown + " never sent its time");
                    check(c.poll() == null, "Chan.after sent twice");
                }).failingAnAllocation(),
                // the timers' heap is full (the timers of day-long Chan.afters fill it), so this Chan.after grows it:
                // the grown heap made on the exhausted heap before the timer is counted in, a schedule that runs out
                // of memory leaves the timers as they were (coverage review 24: no other scenario grew the heap)
                Scenario.of("Chan.after (the timers' heap grows)", FullHeapState::new, s -> {
                    s.chan = Chan.after(AfterState.DELAY);
                }, (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    try {
                        check(thrown != null || s.heapLength.call() > s.length, "the heap did not grow: "
                                + s.length + " before, " + s.heapLength.call() + " after");
                        Chan<Instant> c = thrown == null ? s.chan : Chan.after(AfterState.DELAY);
                        check(c.poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) != null, thrown == null
                                ? "Chan.after(" + AfterState.DELAY + ") that grew the heap never sent its time"
                                : "a Chan.after made after one that threw " + thrown + " never sent its time");
                        Chan<Instant> next = Chan.after(AfterState.DELAY);
                        check(next.poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) != null,
                                "a later Chan.after never sent its time");
                    } catch (ArrayIndexOutOfBoundsException e) { // the heap's count past its length
                        throw new AssertionError("a Chan.after after the one that grew the heap "
                                + (thrown == null ? "returned" : "threw " + thrown) + " threw " + e, e);
                    } finally {
                        s.fillers.forEach(Chan::close); // their timers dropped: woken, the timer thread ends idle
                        LockSupport.unpark(s.timerThread.call());
                    }
                }).failingAnAllocation(),
                Scenario.of("Chan.close (a receiver waiting)", () -> {
                    ChanState s = new ChanState();
                    s.got.set("unset");
                    s.with(Probe.start("receiver", () -> s.got.set(s.chan.receive())));
                    Probe.until("the receiver waits", () -> s.counterpart.thread().getState() == Thread.State.WAITING);
                    return s;
                }, s -> s.chan.close(), (s, thrown) -> {
                    noneOrOutOfMemory(thrown);
                    if (thrown == null) {
                        s.counterpart.join();
                        check(s.got.get() == null, "the receiver got " + s.got + " from a closed channel");
                    } else {
                        s.chan.close();
                        s.counterpart.join();
                    }
                }),
                // a reset stops the ticker's timer and schedules another: its timer (and a timer thread) made before
                // the old one stops, a reset that runs out of memory leaves the ticker ticking (a heap it grows: the
                // scenario after next)
                Scenario.of("Ticker.reset (200 ms to 10 ms)", () -> new Ticker(Duration.ofMillis(200)),
                        t -> t.reset(Duration.ofMillis(10)), (t, thrown) -> {
                            noneOrOutOfMemory(thrown);
                            try {
                                check(t.chan().poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) != null,
                                        "the ticker does not tick after its reset " + (thrown == null ? "returned"
                                                : "threw " + thrown));
                                t.reset(Duration.ofMillis(10));
                                check(t.chan().poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) != null,
                                        "the ticker does not tick after a second reset");
                            } finally {
                                t.stop();
                            }
                        }));
    }

    /** The channel a {@link Chan#after} made, and when its time comes. */
    private static final class AfterState {
        static final Duration DELAY = Duration.ofMillis(10);
        /** How long the operation waits past the time (the timer thread's wake-up), in parks of PARK_NANOS. */
        static final long PAST_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
        static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
        /**
         * A timer due in a day keeps the timer thread at work (it ends once no timer is left for 1 s): every run's
         * operation then makes the same allocations as the traced one, none of them the thread.
         */
        static final Chan<Instant> KEEP_THREAD = Chan.after(Duration.ofDays(1));
        volatile long due;
        volatile Chan<Instant> chan;
    }

    /**
     * Day-long {@link Chan#after} channels that fill the timers' heap to its length, so that the next schedule grows
     * it. A heap never shrinks, and each run grows one (the operation, or the check's {@code Chan.after} after an
     * operation that threw), so each setup starts the timers anew, by reflection (the sweep's JVMs run the class
     * path): it drops the timers' instance, and the first filler makes a new one, with a heap of its initial
     * length. The check closes the fillers and wakes the thread, which then ends idle.
     */
    private static final class FullHeapState {
        final List<Chan<Instant>> fillers = new ArrayList<>();
        /** The heap's length when it was full. */
        final int length;
        final Callable<Integer> heapLength;
        final Callable<Thread> timerThread;
        volatile Chan<Instant> chan;

        FullHeapState() throws Exception {
            Class<?> timers = Class.forName("io.ants4j.channels.Timers");
            Method queued = timers.getDeclaredMethod("queued");
            queued.setAccessible(true);
            Method thread = timers.getDeclaredMethod("thread");
            thread.setAccessible(true);
            timerThread = () -> (Thread) thread.invoke(null);
            Field instance = timers.getDeclaredField("instance");
            instance.setAccessible(true);
            Field heap = timers.getDeclaredField("heap");
            heap.setAccessible(true);
            instance.set(null, null); // the timers made anew by the next schedule
            fillers.add(Chan.after(Duration.ofDays(1)));
            heapLength = () -> ((Object[]) heap.get(instance.get(null))).length;
            length = heapLength.call();
            for (int n = (int) queued.invoke(null); n < length; n++) {
                fillers.add(Chan.after(Duration.ofDays(1)));
            }
            check((int) queued.invoke(null) == length && heapLength.call() == length,
                    "the timers' heap is not full: " + queued.invoke(null) + " of " + heapLength.call());
        }
    }

    /** A rendezvous through {@code c}: a thread receives what this one sends. */
    private static void chanWorks(Chan<Integer> c) throws Exception {
        AtomicReference<Integer> got = new AtomicReference<>();
        Probe.Helper receiver = Probe.start("rendezvous", () -> got.set(c.poll(Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)));
        check(c.offer(5, Probe.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), "no rendezvous through " + c);
        receiver.join();
        check(Integer.valueOf(5).equals(got.get()), "the rendezvous gave " + got);
    }
}
