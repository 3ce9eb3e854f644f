package io.ants4j.examples;

import io.ants4j.primitives.Cond;
import io.ants4j.primitives.SpinLock;
import java.util.ArrayDeque;

/**
 * A bounded producer/consumer buffer with two {@link Cond}s over one lock: producers wait on {@code notFull},
 * consumers on {@code notEmpty}. Each side re-checks its state in a loop after waking, as with any condition
 * variable; {@code signal} wakes the longest-waiting thread, so no producer or consumer starves. The critical
 * sections are a few instructions, so a {@link SpinLock} guards them; waiting itself parks the thread.
 *
 * @param <T> the type of the items
 */
public final class BoundedBuffer<T> {
    private final SpinLock lock = new SpinLock();
    private final Cond notFull = new Cond(lock);
    private final Cond notEmpty = new Cond(lock);
    private final ArrayDeque<T> items;
    private final int capacity;

    /**
     * Makes an empty buffer.
     *
     * @param capacity the most items it holds
     */
    public BoundedBuffer(int capacity) {
        this.capacity = capacity;
        this.items = new ArrayDeque<>(capacity);
    }

    /**
     * Four producers put 1,000 numbers each through a buffer of 16; the main thread takes them and prints the sum.
     *
     * @param args ignored
     * @throws InterruptedException if interrupted while waiting
     */
    public static void main(String[] args) throws InterruptedException {
        System.out.println("sum " + produceAndConsume(4, 1_000, 16));
    }

    /**
     * Starts {@code producers} virtual threads that each put the numbers 1 to {@code perProducer} into a buffer of
     * {@code capacity}, and takes every number on the calling thread.
     *
     * @param producers   how many producer threads
     * @param perProducer how many numbers each puts
     * @param capacity    the buffer's capacity
     * @return the sum of the numbers taken
     * @throws InterruptedException if interrupted while waiting
     */
    public static long produceAndConsume(int producers, int perProducer, int capacity) throws InterruptedException {
        BoundedBuffer<Integer> buffer = new BoundedBuffer<>(capacity);
        for (int p = 0; p < producers; p++) {
            Thread.ofVirtual().start(() -> {
                try {
                    for (int n = 1; n <= perProducer; n++) {
                        buffer.put(n);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        long sum = 0;
        for (long taken = 0; taken < (long) producers * perProducer; taken++) {
            sum += buffer.take();
        }
        return sum;
    }

    /**
     * Adds {@code item}, waiting while the buffer is full.
     *
     * @param item the item
     * @throws InterruptedException if interrupted while waiting
     */
    public void put(T item) throws InterruptedException {
        lock.lock();
        try {
            while (items.size() == capacity) {
                notFull.await();
            }
            items.addLast(item);
        } finally {
            lock.unlock();
        }
        notEmpty.signal();                 // a Cond may be signalled without holding the lock
    }

    /**
     * Removes the oldest item, waiting while the buffer is empty.
     *
     * @return the oldest item
     * @throws InterruptedException if interrupted while waiting
     */
    public T take() throws InterruptedException {
        T item;
        lock.lock();
        try {
            while (items.isEmpty()) {
                notEmpty.await();
            }
            item = items.removeFirst();
        } finally {
            lock.unlock();
        }
        notFull.signal();
        return item;
    }

    /**
     * Returns how many items the buffer holds now.
     *
     * @return the number of items
     */
    public int size() {
        lock.lock();
        try {
            return items.size();
        } finally {
            lock.unlock();
        }
    }
}
