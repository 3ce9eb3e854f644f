package io.ants4j.channels;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A channel: Go's {@code chan T}. Values sent into it come out of it once each, in order, to whichever receiver
 * takes them.
 *
 * <p>An unbuffered channel ({@code new Chan<>()}, capacity 0) is a rendezvous: a {@link #send} waits until a
 * receiver takes its value, a {@link #receive} until a sender gives one. A buffered channel ({@code new
 * Chan<>(n)}) holds up to {@code n} values: a send waits only while the buffer is full, a receive only while it is
 * empty. Senders and receivers that wait are served first come, first served, and values come out in the order
 * their sends completed.
 *
 * <p>{@link #close()} says that no more values will be sent: a send on a closed channel throws
 * {@link ChanClosedException} (Go panics), senders waiting at the close throw it too, and once the values buffered
 * before the close have been received, every receive returns {@code null} at once (Go's {@code v, ok := <-ch} with
 * {@code ok} false). Values are never {@code null}: {@code null} is how a receive says "closed". Only a sender should
 * close a channel, and only once: a second close throws {@link ChanClosedException}.
 *
 * <p>Blocking operations throw {@link InterruptedException} if the thread is interrupted on entry or while it waits;
 * a sender or receiver that is interrupted, or whose timed wait ends, leaves having sent or received nothing, and a
 * value that raced with its departure goes to the next waiter. One whose value was handed over as it was interrupted
 * returns normally, with its interrupt status set. The non-blocking and timed forms are named as in
 * {@link java.util.concurrent.BlockingQueue}: {@link #offer(Object)}, {@link #poll()} and their timed twins; a
 * {@link Select} waits on several channels at once. A waiting thread may first spin for some microseconds (a platform
 * thread longer than a virtual one, and a timed wait never past its deadline), then parks (a virtual thread unmounts):
 * it holds no monitor while it waits, nor its carrier past that spin.
 *
 * <p>The channel is {@link Iterable}: {@code for (T v : ch)} is Go's {@code for v := range ch}, a receive per value
 * until the channel is closed and drained.
 *
 * <p>Failures: a waiter that the JDK cannot unpark (a virtual thread whose scheduler refuses it; on JDK 21 an
 * {@code OutOfMemoryError}) is lost alone: the send, receive or close that chose it is done and returns normally.
 *
 * <p>Memory consistency effects: actions of a thread before it sends a value happen-before the actions after the
 * receive that takes that value; a {@code close()} happens-before a receive that returns {@code null} for it.
 *
 * @param <T> the type of the values
 */
public final class Chan<T> implements Iterable<T> {
    /*
     * Implementation notes: Go's hchan (runtime/chan.go), with one lock per channel.
     *
     * Under the lock: a ring buffer of capacity values (head, count), the queue of blocked senders and the queue of
     * blocked receivers (Waiter nodes, Go's sudogs), and closed. Invariants, as in Go: receivers wait only while
     * the buffer is empty and senders only while it is full (so, unbuffered, at most one of the two queues has
     * waiters that can still be claimed); a waiter is claimed (its outcome decided, see Waiter) under the lock of
     * the channel it is queued on, and removed from the queue then.
     *
     * A send: a claimable receiver waiting -> the value goes to it directly; else room in the buffer -> appended;
     * else it queues and waits. A receive: a buffered value -> taken, and the first claimable sender's value is
     * appended in its place (the order of completed sends stays the buffer's order); else a claimable sender
     * waiting (unbuffered) -> its value taken; else closed -> null; else it queues and waits. The counterpart is
     * unparked after the unlock. A waiter that gives up wins or loses the CAS of its outcome: if it wins, it
     * leaves with nothing and removes its node under the lock; if it loses, the operation happened.
     *
     * close() claims every waiter with the closed outcome under the lock, chaining them, and wakes them after the
     * unlock. A waiter whose park throws gives up as an interrupted one does (if it still can); a claimed waiter the
     * JDK cannot unpark is lost alone (Waiter.wake): the operation that claimed it is done and does not throw.
     * A waiter is allocated under the lock before anything changes, so an OutOfMemoryError leaves the channel as it
     * was. count and closed are read without the lock by len() and isClosed() (Go's len is as racy).
     */
    /** What takeLocked returns when no value is ready (values are never null; null means closed and drained). */
    static final Object NOT_READY = new Object();
    private static final AtomicLong IDS = new AtomicLong();
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(Chan.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The order in which a select locks channels. */
    final long id = IDS.getAndIncrement();
    final ChanLock lock = new ChanLock();
    private final int capacity;
    private final Object[] buffer;
    private int head;
    @SuppressWarnings("unused")
    private int count;
    private volatile boolean closed;
    private final WaitQueue senders = new WaitQueue();
    private final WaitQueue receivers = new WaitQueue();
    /** A sender claimed by takeLocked, handed to its caller under the lock (claimedLocked). */
    private Waiter claimed;
    /** Waits in a row whose spin ended without a counterpart: a hint for Waiter, read and written without order. */
    int spinMisses;

    /**
     * Returns a channel on which the current time is sent once {@code delay} has passed (Go's {@code time.After}); a
     * zero or negative delay sends it at once. The channel holds the value until it is received, and is never
     * closed. A channel nobody refers to any more is collected with its timer, before its delay has passed or after
     * (as in Go 1.23). The channel is the timer's to send on (Go's is receive-only): a value sent on it by anyone else
     * that is still in it when the delay has passed takes the place of the time, which is then dropped, and a channel
     * its user closes drops its timer.
     *
     * @param delay how long from now
     * @return a channel of capacity 1 that will hold one value
     * @throws NullPointerException if {@code delay} is null
     */
    public static Chan<Instant> after(Duration delay) {
        long nanos = saturatedNanos(delay);
        Chan<Instant> c = new Chan<>(1);
        if (nanos <= 0L) {
            c.offer(Instant.now());
        } else {
            Timers.after(c, nanos);
        }
        return c;
    }

    /** Creates an unbuffered channel: a send waits for its receiver. */
    public Chan() {
        this(0);
    }

    /**
     * Creates a channel that buffers up to {@code capacity} values; 0 makes it unbuffered.
     *
     * @param capacity the number of values sent that may wait for a receiver
     * @throws IllegalArgumentException if {@code capacity} is negative
     */
    public Chan(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity < 0: " + capacity);
        }
        this.capacity = capacity;
        this.buffer = capacity == 0 ? null : new Object[capacity];
    }

    /**
     * Sends {@code value}, waiting until a receiver takes it (unbuffered) or the buffer has room.
     *
     * @param value the value
     * @throws ChanClosedException if the channel is closed, or is closed while this thread waits; nothing was sent
     * @throws InterruptedException if the thread is interrupted on entry or while it waits; nothing was sent
     * @throws NullPointerException if {@code value} is null
     */
    public void send(T value) throws InterruptedException {
        send(value, false, 0L);
    }

    /**
     * Sends {@code value} if that needs no wait: a receiver is waiting, or the buffer has room (Go's {@code select}
     * with a send case and a {@code default}).
     *
     * @param value the value
     * @return whether it was sent
     * @throws ChanClosedException if the channel is closed
     * @throws NullPointerException if {@code value} is null
     */
    public boolean offer(T value) {
        Objects.requireNonNull(value, "value");
        Object sent;
        lock.lock();
        try {
            if (closed) {
                throw sendOnClosed();
            }
            sent = trySendLocked(value);
        } finally {
            lock.unlock();
        }
        if (sent instanceof Waiter receiver) {
            receiver.wake();
        }
        return sent != null;
    }

    /**
     * Sends {@code value}, waiting at most {@code timeout} for a receiver or for room in the buffer.
     *
     * @param value the value
     * @param timeout how long to wait at most; zero or less: not at all
     * @param unit the unit of {@code timeout}
     * @return true if it was sent, false if the time ran out first (nothing was sent)
     * @throws ChanClosedException if the channel is closed, or is closed while this thread waits; nothing was sent
     * @throws InterruptedException if the thread is interrupted on entry or while it waits; nothing was sent
     * @throws NullPointerException if {@code value} or {@code unit} is null
     */
    public boolean offer(T value, long timeout, TimeUnit unit) throws InterruptedException {
        return send(value, true, unit.toNanos(timeout));
    }

    /**
     * Receives a value, waiting until one is sent; returns {@code null} once the channel is closed and every value
     * sent before the close has been received.
     *
     * @return the value, or null if the channel is closed and drained
     * @throws InterruptedException if the thread is interrupted on entry or while it waits; nothing was received
     */
    public T receive() throws InterruptedException {
        return receive(false, 0L);
    }

    /**
     * Receives a value if that needs no wait: one is buffered or a sender is waiting (Go's {@code select} with a
     * receive case and a {@code default}).
     *
     * @return the value, or null if none was ready or the channel is closed and drained (to tell which, read
     *     {@link #isClosed()} BEFORE the poll: a channel already closed when a poll finds it empty stays so; read after,
     *     a value may have been sent and the channel closed in between)
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        Object value;
        Waiter sender;
        lock.lock();
        try {
            value = takeLocked();
            sender = claimedLocked();
        } finally {
            lock.unlock();
        }
        if (sender != null) {
            sender.wake();
        }
        return value == NOT_READY ? null : (T) value;
    }

    /**
     * Receives a value, waiting at most {@code timeout} for one.
     *
     * @param timeout how long to wait at most; zero or less: not at all
     * @param unit the unit of {@code timeout}
     * @return the value, or null if the time ran out first (nothing was received) or the channel is closed and
     *     drained ({@link #isClosed()} read before the poll tells which, as for {@link #poll()})
     * @throws InterruptedException if the thread is interrupted on entry or while it waits; nothing was received
     * @throws NullPointerException if {@code unit} is null
     */
    public T poll(long timeout, TimeUnit unit) throws InterruptedException {
        return receive(true, unit.toNanos(timeout));
    }

    /**
     * Closes the channel (Go's {@code close(ch)}): later sends throw {@link ChanClosedException}, senders waiting
     * now throw it, receivers waiting now return {@code null}, and once the buffered values have been received every
     * receive returns {@code null}.
     *
     * @throws ChanClosedException if the channel was already closed
     */
    public void close() {
        Waiter woken = null;
        lock.lock();
        try {
            if (closed) {
                throw new ChanClosedException("close of closed channel");
            }
            closed = true;
            for (Waiter w; (w = receivers.claimFirst(null, true)) != null; ) {
                w.closedNext = woken;
                woken = w;
            }
            for (Waiter w; (w = senders.claimFirst(null, true)) != null; ) {
                w.closedNext = woken;
                woken = w;
            }
        } finally {
            lock.unlock();
        }
        while (woken != null) {
            Waiter next = woken.closedNext;
            woken.wake();
            woken = next;
        }
    }

    /**
     * Returns whether {@link #close()} was called.
     *
     * @return whether the channel is closed (values buffered before the close may still be received)
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Returns the number of values in the buffer (Go's {@code len(ch)}): a snapshot, which sends and receives
     * change as soon as it is read; always 0 for an unbuffered channel.
     *
     * @return the number of buffered values
     */
    public int len() {
        return (int) COUNT.getOpaque(this);
    }

    /**
     * Returns the capacity of the buffer (Go's {@code cap(ch)}).
     *
     * @return the capacity given at construction; 0 for an unbuffered channel
     */
    public int cap() {
        return capacity;
    }

    /**
     * A case of {@link Select#select} that receives from this channel and gives the value to {@code action}, or
     * {@code null} if the channel is closed and drained.
     *
     * @param action run with the value received, after the select has taken it
     * @return the case
     * @throws NullPointerException if {@code action} is null
     */
    public Select.Case onReceive(Consumer<? super T> action) {
        return new Select.Receive<>(this, Objects.requireNonNull(action, "action"));
    }

    /**
     * A case of {@link Select#select} that sends {@code value} into this channel, then runs {@code action}. If the
     * channel is closed when the select would choose the case, the select throws {@link ChanClosedException}.
     *
     * @param value the value to send
     * @param action run once the value is sent
     * @return the case
     * @throws NullPointerException if {@code value} or {@code action} is null
     */
    public Select.Case onSend(T value, Runnable action) {
        return new Select.Send(this, Objects.requireNonNull(value, "value"), Objects.requireNonNull(action, "action"));
    }

    /**
     * Returns an iterator that receives the channel's values until it is closed and drained (Go's
     * {@code for v := range ch}). Its {@code hasNext} waits for the next value; if the thread is interrupted while it
     * waits, {@code hasNext} throws {@link CancellationException} (its cause an {@link InterruptedException}) with
     * the interrupt status set again, having received nothing. Several iterators share the values, as several
     * receivers do.
     *
     * @return an iterator over the values received
     */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private T next;

            @Override
            public boolean hasNext() {
                if (next == null) {
                    try {
                        next = receive();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        CancellationException stop = new CancellationException("interrupted while waiting for a value");
                        stop.initCause(e);
                        throw stop;
                    }
                }
                return next != null;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("the channel is closed and drained");
                }
                T value = next;
                next = null;
                return value;
            }
        };
    }

    /**
     * Returns a string identifying the channel, its capacity, the number of buffered values and whether it is
     * closed.
     *
     * @return e.g. {@code "Chan@1b6d3586[len = 2, cap = 16]"} or {@code "Chan@1b6d3586[len = 0, cap = 0, closed]"}
     */
    @Override
    public String toString() {
        return "Chan@" + Integer.toHexString(System.identityHashCode(this)) + "[len = " + len() + ", cap = " + capacity
                + (closed ? ", closed]" : "]");
    }

    // ---- under the lock, for Chan and Select ----

    /** Sends {@code value} if it can without waiting: the receiver to unpark, {@code this} if buffered, else null. */
    Object trySendLocked(Object value) {
        Waiter receiver = receivers.claimFirst(value, false);
        if (receiver != null) {
            return receiver;
        }
        if (count < capacity) {
            append(value);
            return this;
        }
        return null;
    }

    /**
     * Takes a value if one is ready: buffered (a waiting sender's value then moves in behind the others) or a waiting
     * sender's. Returns it, null if the channel is closed and drained, or NOT_READY. The sender it claimed, to be
     * woken after the unlock, is left for {@link #claimedLocked}.
     */
    Object takeLocked() {
        if (count > 0) {
            Object value = takeBuffered();
            Waiter sender = senders.claimFirst(null, false);
            if (sender != null) {
                append(sender.item);
                claimed = sender;
            }
            return value;
        }
        Waiter sender = senders.claimFirst(null, false);
        if (sender != null) {
            claimed = sender;
            return sender.item;
        }
        return closed ? null : NOT_READY;
    }

    /** The sender the last {@link #takeLocked} claimed, if any, taken out: the caller wakes it after the unlock. */
    Waiter claimedLocked() {
        Waiter sender = claimed;
        claimed = null;
        return sender;
    }

    /**
     * A timer's tick (see Timers): sent unless the channel is closed or the timer was stopped; dropped if the buffer
     * is full, as Go drops a tick no receiver took. Before it, a tick of a stopped timer of the same ticker still
     * first in the buffer is taken out. Returns false, having done nothing, if the lock is not free (within a short
     * retry if {@code spin}): the timer thread never queues on a channel's lock.
     */
    boolean offerTick(Timers.Timer timer, Instant tick, boolean spin) {
        if (!(spin ? lock.tryLockBriefly() : lock.tryLock())) {
            return false;
        }
        Waiter refill = null;
        Object sent = null;
        Timers.LastTick last = timer.lastTick;
        try {
            if (last != null) {
                last.sending = true; // before the read of stopped: see takeStaleTick
            }
            if (!closed && !timer.stopped) {
                if (last != null) {
                    refill = takeStaleTickLocked(last);
                }
                sent = trySendLocked(tick);
                if (sent != null && last != null) {
                    last.tick = tick;
                    last.by = timer;
                }
            }
        } finally {
            if (last != null) {
                last.sending = false;
            }
            lock.unlock();
        }
        if (refill != null) {
            refill.wake();
        }
        if (sent instanceof Waiter receiver) {
            receiver.wake();
        }
        return true;
    }

    /**
     * Whether {@code value} (by identity) may be the value first in the buffer: read without the lock, a hint (see
     * Timers' notes); the lock decides.
     */
    boolean mayHoldFirst(Object value) {
        return (int) COUNT.getOpaque(this) > 0 && buffer[head] == value;
    }

    /**
     * After a timer of the ticker was marked stopped: takes the ticker's last tick out if its timer was stopped and
     * it is still first in the buffer (the same object), and moves a blocked sender's value in behind the rest, as a
     * receive does. Takes the lock only if a value is buffered or a tick of the ticker is being sent (as Go's
     * timerchandrain): stopped was written before sending is read here, and sending before stopped is read by the
     * sender (all volatile), so a send that missed the stop is seen sending, or done and counted in len().
     */
    void takeStaleTick(Timers.LastTick last) {
        if (!last.sending && len() == 0) {
            return;
        }
        Waiter refill;
        lock.lock();
        try {
            refill = takeStaleTickLocked(last);
        } finally {
            lock.unlock();
        }
        if (refill != null) {
            refill.wake();
        }
    }

    /** {@link #takeStaleTick}, lock held: returns the sender claimed to refill the buffer, to wake after the unlock. */
    private Waiter takeStaleTickLocked(Timers.LastTick last) {
        Object stale = last.tick;
        if (stale == null || !last.by.stopped) {
            return null;
        }
        last.tick = null;
        last.by = null;
        if (count > 0 && buffer[head] == stale) {
            takeLocked();
            return claimedLocked();
        }
        return null;
    }

    void enqueueLocked(Waiter w, boolean send) {
        (send ? senders : receivers).add(w);
    }

    /** Removes a waiter that is no longer waiting here, if still queued. */
    void dequeue(Waiter w, boolean send) {
        lock.lock();
        try {
            (send ? senders : receivers).remove(w);
        } finally {
            lock.unlock();
        }
    }

    // ---- internals ----

    private boolean send(T value, boolean timed, long nanos) throws InterruptedException {
        Objects.requireNonNull(value, "value");
        Interrupts.throwIfInterrupted();
        Object sent;
        Waiter mine = null;
        lock.lock();
        try {
            if (closed) {
                throw sendOnClosed();
            }
            sent = trySendLocked(value);
            if (sent == null && !(timed && nanos <= 0L)) {
                mine = new Waiter(this, value);
                senders.add(mine);
            }
        } finally {
            lock.unlock();
        }
        if (sent instanceof Waiter receiver) {
            receiver.wake();
        }
        if (mine == null) {
            return sent != null;
        }
        int outcome = await(mine, timed, nanos, true);
        if (outcome == Waiter.CANCELLED) {
            return false;
        }
        if (Waiter.closedOutcome(outcome)) {
            throw sendOnClosed();
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private T receive(boolean timed, long nanos) throws InterruptedException {
        Interrupts.throwIfInterrupted();
        Object value;
        Waiter sender;
        Waiter mine = null;
        lock.lock();
        try {
            value = takeLocked();
            sender = claimedLocked();
            if (value == NOT_READY && !(timed && nanos <= 0L)) {
                mine = new Waiter(this, null);
                receivers.add(mine);
            }
        } finally {
            lock.unlock();
        }
        if (sender != null) {
            sender.wake();
        }
        if (mine == null) {
            return value == NOT_READY ? null : (T) value;
        }
        int outcome = await(mine, timed, nanos, false);
        return outcome == Waiter.CANCELLED || Waiter.closedOutcome(outcome) ? null : (T) mine.item;
    }

    /** Waits until {@code w} is claimed and returns its outcome; CANCELLED if the time ran out first. */
    private int await(Waiter w, boolean timed, long nanos, boolean send) throws InterruptedException {
        int outcome;
        try {
            outcome = w.await(timed, nanos);
        } catch (RuntimeException | Error e) { // its park threw, and it gave up
            dequeue(w, send);
            throw e;
        }
        if (outcome < 0) {
            dequeue(w, send);
            if (outcome == Waiter.INTERRUPTED) {
                throw Interrupts.consumed();
            }
        }
        return outcome;
    }

    private void append(Object value) {
        int tail = head + count;
        buffer[tail < capacity ? tail : tail - capacity] = value;
        COUNT.setOpaque(this, count + 1);
    }

    private Object takeBuffered() {
        Object value = buffer[head];
        buffer[head] = null;
        head = head + 1 == capacity ? 0 : head + 1;
        COUNT.setOpaque(this, count - 1);
        return value;
    }

    /** The duration in nanoseconds, or the nearest long if it has more (292 years). */
    static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static ChanClosedException sendOnClosed() {
        return new ChanClosedException("send on closed channel");
    }
}
