package io.ants4j.channels;

import java.lang.reflect.Constructor;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Review 63: the window of a channel operation between its unlock and what follows (the wake of its counterpart;
 * in a design that claimed a counterpart after the unlock, the claim). The window is opened deterministically: the channel's lock has a virtual
 * thread queued behind the operation's thread, so the operation's unlock unparks it, and that virtual thread's
 * scheduler (the JDK's builder of virtual threads with a scheduler, {@code --add-opens java.base/java.lang}) is
 * called in the operation's thread, where it pauses (or throws, as the rejecting scheduler of LostWaiterProbe).
 * Run in a JVM of its own by {@link HandOffWindowTest}. Prints {@code OK} last, or {@code FAIL: } and what went
 * wrong.
 */
final class HandOffWindowProbe {
    private static final long WAIT_SECONDS = 10;

    private HandOffWindowProbe() {
    }

    public static void main(String[] args) throws Exception {
        String result;
        try {
            result = switch (args[0]) {
                case "selectAtClose" -> selectAtClose();
                case "senderAtClose" -> blockedAtClose(true);
                case "receiverAtClose" -> blockedAtClose(false);
                case "rejectedUnpark" -> rejectedUnpark();
                case "selectSendAtClose" -> selectSendAtClose();
                case "rejectedUnparkInReceive" -> rejectedUnparkInReceive();
                case "rejectedUnparkInClose" -> rejectedUnparkInClose();
                case "rejectedUnparkInTickerStop" -> rejectedUnparkInTickerStop();
                default -> "FAIL: unknown probe " + args[0];
            };
        } catch (Throwable t) {
            result = "FAIL: " + t;
        }
        System.out.println(result);
        System.out.flush();
        Runtime.getRuntime().halt(0); // a lost thread may never end
    }

    /**
     * A select waiting on c (and on other) when c is closed returns c's case (with null, or with the value of a send
     * that completed before the close), never a value offered on other after close() returned.
     */
    private static String selectAtClose() throws Exception {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread select = Thread.ofPlatform().daemon().name("select").start(() -> {
            try {
                chosen.set(Select.select(c.onReceive(got::set), other.onReceive(got::set)));
            } catch (Throwable t) {
                got.set(t);
            }
        });
        untilBlocked(select);
        AtomicReference<String> send = new AtomicReference<>("unset");
        Pausing scheduler = new Pausing();
        Thread sender = inTheWindow(c.lock, scheduler, () -> c.poll(), sendOne(c, send));
        c.close(); // the select waits on c: it must be done with c's case now
        boolean offered = other.offer(5);
        scheduler.resume.countDown();
        select.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        sender.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the select returned case " + chosen + " with " + got + "; other.offer(5) after close() returned "
                + offered + "; the send " + send;
        if (select.isAlive() || sender.isAlive()) {
            return "FAIL: still blocked; " + seen;
        }
        boolean closedCase = chosen.get() == 0 && got.get() == null && send.get().equals("threw ChanClosedException");
        boolean sentBefore = chosen.get() == 0 && Integer.valueOf(1).equals(got.get()) && send.get().equals("sent");
        return !offered && (closedCase || sentBefore) ? "OK" : "FAIL: " + seen;
    }

    /**
     * A sender (or receiver) blocked when the channel is closed throws ChanClosedException (returns null), or its
     * counterpart's operation, in the window, completed with it before the close; also if it is interrupted after
     * close() returned.
     */
    private static String blockedAtClose(boolean sender) throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<String> send = new AtomicReference<>("unset");
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread blocked = startBlocked(sender ? "blocked sender" : "blocked receiver",
                sender ? sendOne(c, send) : receiveInto(c, got));
        Pausing scheduler = new Pausing();
        Thread counterpart = sender ? inTheWindow(c.lock, scheduler, () -> offerQuietly(c), receiveInto(c, got))
                : inTheWindow(c.lock, scheduler, () -> c.poll(), sendOne(c, send));
        c.close(); // the blocked one waits: it must be done with the close now
        blocked.interrupt(); // after the close: too late to change that
        blocked.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS)); // done at the close, or left at the interrupt
        scheduler.resume.countDown();
        counterpart.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the send " + send + "; the receive got " + got + " (blocked: the " + (sender ? "send" : "receive")
                + ")";
        if (blocked.isAlive() || counterpart.isAlive()) {
            return "FAIL: still blocked; " + seen;
        }
        boolean closedCase = send.get().equals("threw ChanClosedException") && got.get() == null;
        boolean sentBefore = send.get().equals("sent") && Integer.valueOf(1).equals(got.get());
        return closedCase || sentBefore ? "OK" : "FAIL: " + seen;
    }

    /**
     * A send whose unlock throws (the JDK cannot unpark the virtual thread queued for the lock: its scheduler
     * rejects it, JDK 25's stand-in for JDK 21's OutOfMemoryError) either delivered its value and the receiver has
     * it, or delivered nothing and the receiver still waits: a close then wakes it with null.
     */
    private static String rejectedUnpark() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread blocked = startBlocked("blocked receiver", receiveInto(c, got));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread sender = inTheWindow(c.lock, Pausing.rejecting(), () -> c.poll(),
                thrownInto(thrown, () -> c.send(1)));
        sender.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        if (sender.isAlive()) {
            return "FAIL: the send did not return";
        }
        boolean sendThrew = thrown.get() != null;
        boolean offeredAfter = c.offer(2); // a receiver that still waits takes it
        c.close();
        blocked.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the send " + (sendThrew ? "threw " + thrown.get() : "returned") + "; offer(2) after it "
                + offeredAfter + "; the blocked receive "
                + (blocked.isAlive() ? "still waits after close() returned" : "got " + got.get());
        if (blocked.isAlive()) {
            return "FAIL: " + seen;
        }
        if (sendThrew) {
            boolean ok = offeredAfter ? Integer.valueOf(2).equals(got.get()) : got.get() == null;
            return ok ? "OK" : "FAIL: " + seen; // a send that threw delivered nothing
        }
        return Integer.valueOf(1).equals(got.get()) && !offeredAfter ? "OK" : "FAIL: " + seen;
    }

    /**
     * A select waiting to send on c (and to receive on other) when c is closed throws ChanClosedException (Go
     * panics: close wakes the sudog of its send case), or its value was taken before the close; it never returns
     * other's case with a value offered after close() returned.
     */
    private static String selectSendAtClose() throws Exception {
        Chan<Integer> c = new Chan<>();
        Chan<Integer> other = new Chan<>();
        AtomicInteger chosen = new AtomicInteger(-1);
        AtomicReference<Object> outcome = new AtomicReference<>("unset");
        Thread select = Thread.ofPlatform().daemon().name("select").start(() -> {
            try {
                chosen.set(Select.select(c.onSend(1, () -> { }), other.onReceive(outcome::set)));
            } catch (Throwable t) {
                outcome.set(t.getClass().getSimpleName());
            }
        });
        untilBlocked(select);
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Pausing scheduler = new Pausing();
        Thread receiver = inTheWindow(c.lock, scheduler, () -> offerQuietly(c), receiveInto(c, got));
        c.close(); // the select waits to send on c: it must throw ChanClosedException now
        boolean offered = other.offer(5);
        scheduler.resume.countDown();
        select.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        receiver.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the select returned case " + chosen + " (" + outcome + "); other.offer(5) after close() returned "
                + offered + "; the receive got " + got;
        if (select.isAlive() || receiver.isAlive()) {
            return "FAIL: still blocked; " + seen;
        }
        boolean closedCase = "ChanClosedException".equals(outcome.get()) && got.get() == null;
        boolean sentBefore = chosen.get() == 0 && Integer.valueOf(1).equals(got.get());
        return !offered && (closedCase || sentBefore) ? "OK" : "FAIL: " + seen;
    }

    /**
     * A receive whose unlock throws (as in rejectedUnpark) either took the blocked sender's value and the sender
     * returns, or took nothing and the sender still waits: a poll then takes its value, or a close makes it throw.
     */
    private static String rejectedUnparkInReceive() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<String> send = new AtomicReference<>("unset");
        Thread blocked = startBlocked("blocked sender", sendOne(c, send));
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread receiver = inTheWindow(c.lock, Pausing.rejecting(), () -> offerQuietly(c), receiveInto(c, got));
        receiver.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        if (receiver.isAlive()) {
            return "FAIL: the receive did not return";
        }
        boolean receiveThrew = got.get() instanceof Throwable;
        Integer polled = c.poll(); // a sender that still waits gives its value
        c.close();
        blocked.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the receive " + (receiveThrew ? "threw " : "got ") + got.get() + "; poll() after it " + polled
                + "; the blocked send " + (blocked.isAlive() ? "still waits after close() returned" : send.get());
        if (blocked.isAlive()) {
            return "FAIL: " + seen;
        }
        if (receiveThrew) {
            boolean ok = Integer.valueOf(1).equals(polled) ? send.get().equals("sent")
                    : send.get().equals("threw ChanClosedException");
            return ok ? "OK" : "FAIL: " + seen; // a receive that threw received nothing
        }
        return Integer.valueOf(1).equals(got.get()) && send.get().equals("sent") ? "OK" : "FAIL: " + seen;
    }

    /**
     * A close whose unlock throws (as in rejectedUnpark) has closed the channel or not; either way the receiver
     * blocked in receive is woken with null by it or by a second close.
     */
    private static String rejectedUnparkInClose() throws Exception {
        Chan<Integer> c = new Chan<>();
        AtomicReference<Object> got = new AtomicReference<>("unset");
        Thread blocked = startBlocked("blocked receiver", receiveInto(c, got));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread closer = inTheWindow(c.lock, Pausing.rejecting(), () -> c.poll(), thrownInto(thrown, c::close));
        closer.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        if (closer.isAlive()) {
            return "FAIL: the close did not return";
        }
        String second;
        try {
            c.close();
            second = "returned";
        } catch (ChanClosedException e) {
            second = "threw ChanClosedException";
        }
        blocked.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        String seen = "the close " + (thrown.get() == null ? "returned" : "threw " + thrown.get())
                + "; a second close " + second + "; the blocked receive "
                + (blocked.isAlive() ? "still waits" : "got " + got.get());
        return !blocked.isAlive() && got.get() == null ? "OK" : "FAIL: " + seen;
    }

    /**
     * A Ticker.stop whose unlock of the timers' lock cannot unpark the virtual thread queued behind it (as in
     * rejectedUnpark) has stopped the ticker: it returns, and the channel gets no tick after it.
     */
    private static String rejectedUnparkInTickerStop() throws Exception {
        Ticker ticker = new Ticker(Duration.ofDays(1)); // the timer thread stays parked, out of the lock's queue
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread stopper = inTheWindow(Timers.lock(), Pausing.rejecting(), () -> Chan.after(Duration.ofDays(1)),
                thrownInto(thrown, ticker::stop));
        stopper.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        if (stopper.isAlive()) {
            return "FAIL: Ticker.stop did not return";
        }
        if (thrown.get() != null) {
            return "FAIL: Ticker.stop threw " + thrown.get() + " after it had stopped the ticker";
        }
        ticker.reset(Duration.ofMillis(1));
        ticker.stop();
        Instant late = ticker.chan().poll(50, TimeUnit.MILLISECONDS);
        return late == null ? "OK" : "FAIL: a tick at " + late + " after stop() returned";
    }

    /** A send of 1 on {@code c} that records how it ended: "sent", "threw ChanClosedException" or "threw " + what. */
    private static Runnable sendOne(Chan<Integer> c, AtomicReference<String> send) {
        return () -> {
            try {
                c.send(1);
                send.set("sent");
            } catch (ChanClosedException e) {
                send.set("threw ChanClosedException");
            } catch (Throwable t) {
                send.set("threw " + t);
            }
        };
    }

    /** A receive from {@code c} that records what it got, or what it threw. */
    private static Runnable receiveInto(Chan<Integer> c, AtomicReference<Object> got) {
        return () -> {
            try {
                got.set(c.receive());
            } catch (Throwable t) {
                got.set(t);
            }
        };
    }

    /** An operation of a probe, which may throw anything. */
    private interface Operation {
        void run() throws Exception;
    }

    /** {@code operation}, recording what it throws in {@code thrown}. */
    private static Runnable thrownInto(AtomicReference<Throwable> thrown, Operation operation) {
        return () -> {
            try {
                operation.run();
            } catch (Throwable t) {
                thrown.set(t);
            }
        };
    }

    /** Starts {@code body} on a platform thread and returns once that thread waits. */
    private static Thread startBlocked(String name, Runnable body) {
        Thread t = Thread.ofPlatform().daemon().name(name).start(body);
        untilBlocked(t);
        return t;
    }

    private static void offerQuietly(Chan<Integer> c) {
        try {
            c.offer(99);
        } catch (RuntimeException closed) {
            // the channel is closed by then: nothing to do
        }
    }

    /**
     * Starts {@code operation} on a platform thread so that its unlock of {@code lock} unparks a virtual thread of
     * {@code scheduler} (queued on the lock behind it), and returns once that unlock called the scheduler (which
     * pauses there until resume, or throws); {@code filler} is what the virtual threads do once they have the lock
     * (nothing visible).
     */
    private static Thread inTheWindow(ReentrantLock lock, Pausing scheduler, Runnable filler, Runnable operation)
            throws Exception {
        lock.lock();
        Thread first;
        Thread op;
        Thread last;
        try {
            first = startVirtual(scheduler, "first", filler);
            untilQueued(lock, first);
            op = Thread.ofPlatform().daemon().name("operation").start(operation);
            untilQueued(lock, op);
            last = startVirtual(scheduler, "last", filler);
            untilQueued(lock, last);
            scheduler.in = op;
        } finally {
            lock.unlock(); // first gets the lock, then op, whose unlock unparks last
        }
        if (!scheduler.reject && !scheduler.paused.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("the operation's unlock did not unpark the thread queued behind it");
        }
        return op;
    }

    private static void untilQueued(ReentrantLock lock, Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!lock.hasQueuedThread(t) || t.getState() != Thread.State.WAITING) {
            if (System.nanoTime() - deadline > 0L) {
                throw new AssertionError(t + " did not queue for the lock");
            }
            Thread.onSpinWait();
        }
    }

    private static void untilBlocked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (t.getState() != Thread.State.WAITING) {
            if (System.nanoTime() - deadline > 0L) {
                throw new AssertionError(t + " did not block");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Runs each continuation on a new platform thread; called in thread {@code in}, it first pauses until resume
     * (or, with reject, throws RejectedExecutionException), once.
     */
    static final class Pausing implements Executor {
        final CountDownLatch paused = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        volatile Thread in;
        volatile boolean reject;

        /** A scheduler that rejects the continuation the operation's unlock submits. */
        static Pausing rejecting() {
            Pausing p = new Pausing();
            p.reject = true;
            return p;
        }

        @Override
        public void execute(Runnable continuation) {
            if (in != null && Thread.currentThread() == in) {
                in = null;
                if (reject) {
                    throw new RejectedExecutionException("injected: the virtual thread's scheduler rejects it");
                }
                paused.countDown();
                try {
                    resume.await(WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            Thread.ofPlatform().daemon().name("carrier").start(continuation);
        }
    }

    private static Thread startVirtual(Executor scheduler, String name, Runnable body) throws Exception {
        Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
        Constructor<?> withScheduler = builder.getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        return ((Thread.Builder.OfVirtual) withScheduler.newInstance(scheduler)).name(name).start(body);
    }
}
